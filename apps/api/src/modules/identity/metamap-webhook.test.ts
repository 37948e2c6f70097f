import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cedulaCheckDigit } from '@provee/domain';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, contractSigners, identityVerifications } from '../../db/schema.js';
import { createApplication } from '../../test/factories.js';
import { consentWithOfferedPin, signingLinkFromSms } from '../../test/signer.js';
import { useTestApp } from '../../test/test-app.js';
import { webDist } from '../../test/web-dist.js';

const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
const randomTen = () => `4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

describe('MetaMap: the button, the signed webhook and its answers', () => {
  const SECRET = 'Webhook-Secret-2026-abc';
  const t = useTestApp({
    NIP_PREFILL: 'true',
    BUREAU_SYNC_WAIT_MS: '2000',
    IDENTITY_PROVIDER: 'metamap',
    METAMAP_CLIENT_ID: 'client-123',
    METAMAP_FLOW_ID: 'flow-verification',
    METAMAP_REVERIFICATION_FLOW_ID: 'flow-reverification',
    METAMAP_WEBHOOK_SECRET: SECRET,
    // A page to read the page's policy from.
    WEB_DIST_DIR: webDist(),
  });

  const fixture = (name: string) =>
    JSON.parse(
      readFileSync(new URL(`../../providers/identity/fixtures/${name}.json`, import.meta.url), 'utf8'),
    ) as Record<string, unknown>;
  async function deliver(name: string, metadata: Record<string, string>, verificationId: string, secret = SECRET) {
    const body = JSON.stringify({
      ...fixture(name),
      // What MetaMap read off a document may span lines.
      details: { address: 'Calle Duarte 12\nSanto Domingo' },
      metadata,
      resource: `https://api.getmati.com/v2/verifications/${verificationId}`,
    });
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/identity/metamap',
      headers: {
        'content-type': 'application/json',
        'x-signature': createHmac('sha256', secret).update(body).digest('hex'),
      },
      payload: body,
    });
  }

  /** A pre-approved shopkeeper with a signing link: the link's headers and what its page shows. */
  async function signerWithLink() {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()) });
    await consentWithOfferedPin(t.app, user);
    const { token } = await signingLinkFromSms(t.app, user.id);
    const headers = { authorization: `Bearer ${token}` };
    const page = await t.app.inject({ method: 'GET', url: `/api/v1/users/SK/${user.id}/contract-link`, headers });
    return { user, headers, view: page.json().data };
  }

  it('the page shows the MetaMap button; signed events start and answer the check; forged ones are refused', async () => {
    const { user, headers, view } = await signerWithLink();
    const metadata = view.widget.metadata as Record<string, string>;
    expect(view.widget).toEqual({
      provider: 'metamap',
      client_id: 'client-123',
      flow_id: 'flow-verification',
      metadata: {
        account_id: user.id,
        account_type_id: 'SK',
        person_type: 'titular',
        signer_id: expect.any(String),
        signer_proof: expect.any(String),
      },
    });
    // The page may load MetaMap's button and the frame it opens, and nothing else from outside.
    const csp = String((await t.app.inject({ method: 'GET', url: '/home' })).headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self' https:\/\/\*\.metamap\.com https:\/\/\*\.getmati\.com/);
    expect(csp).toContain('frame-src https://*.metamap.com https://*.getmati.com');
    // The documents go to MetaMap, not here.
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/v1/users/SK/${user.id}/identity-documents`,
      headers,
    });
    expect(upload.json()).toMatchObject({ code: 'IDENTITY_EXTERNAL' });

    const verification = randomUUID().replace(/-/g, '').slice(0, 24);
    // The metadata passes through the browser: without the server's proof it names nobody.
    const forgeries: Record<string, string>[] = [
      { ...metadata, signer_proof: 'forged' },
      { ...metadata, signer_id: randomUUID() },
      { account_id: user.id, account_type_id: 'SK', person_type: 'titular' },
    ];
    for (const forged of forgeries)
      expect(
        (await deliver('verification-started', forged, `${verification.slice(0, 20)}beef`)).json().data.outcome,
      ).toBe('unknown-signer');
    expect((await deliver('verification-started', metadata, verification, 'another-secret-1234')).statusCode).toBe(401);
    expect((await deliver('verification-started', metadata, verification)).json().data.outcome).toBe('started');
    // MetaMap delivers again: recognised as the same delivery, counted once.
    expect((await deliver('verification-started', metadata, verification)).json().data.outcome).toBe('replayed');
    const status = () =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/users/SK/${user.id}/mati-status?verification_type=VERIFICATION&person_type=titular`,
        headers,
      });
    expect((await status()).json().data).toMatchObject({ status: null, verifications_left: 2 });
    expect((await deliver('verification-completed-review-needed', metadata, verification)).json().data.outcome).toBe(
      'applied',
    );
    expect((await status()).json().data.status).toBe('UNDER_REVIEW');
    // A person decides in MetaMap's dashboard.
    expect((await deliver('verification-updated-verified', metadata, verification)).json().data.outcome).toBe(
      'applied',
    );
    const approved = (await status()).json().data;
    expect(approved.status).toBe('APPROVED');
    expect(approved.mati_identity_id).toEqual(expect.any(String));
    // With an identity id the button uses the re-verification flow (SPEC §2.4).
    const again = (
      await t.app.inject({ method: 'GET', url: `/api/v1/users/SK/${user.id}/contract-link`, headers })
    ).json().data;
    expect(again.widget.flow_id).toBe('flow-reverification');
    const types = (await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, user.id))).map(
      (e) => e.type,
    );
    expect(types).toEqual(
      expect.arrayContaining(['identity.check_started', 'identity.answered', 'identity.review_decided']),
    );
  });

  it('issue 26: a replayed delivery is recognised by its bytes, answered 200, and changes nothing', async () => {
    const { user, view } = await signerWithLink();
    const metadata = view.widget.metadata as Record<string, string>;
    const verification = randomUUID().replace(/-/g, '').slice(0, 24);
    // The same start, delivered ten times at once: one check, the rest recognised.
    const starts = await Promise.all(
      Array.from({ length: 10 }, () => deliver('verification-started', metadata, verification)),
    );
    expect(starts.map((res) => res.statusCode)).toEqual(Array(10).fill(200));
    const outcomes = starts.map((res) => res.json().data.outcome as string);
    expect(outcomes.filter((outcome) => outcome === 'started')).toHaveLength(1);
    expect(
      outcomes.filter((outcome) => outcome !== 'started').every((o) => ['replayed', 'duplicate'].includes(o)),
    ).toBe(true);
    expect((await deliver('verification-completed-rejected', metadata, verification)).json().data.outcome).toBe(
      'applied',
    );
    const snapshot = async () => ({
      signer: (await t.app.db.select().from(contractSigners).where(eq(contractSigners.userId, user.id)))[0],
      events: (await t.app.db.select().from(auditEvents).where(eq(auditEvents.applicationId, user.id))).length,
      checks: (await t.app.db.select().from(identityVerifications)).length,
    });
    const before = await snapshot();
    // Captured deliveries sent again, later: each answered 200 so MetaMap stops, nothing moves.
    for (const name of ['verification-started', 'verification-completed-rejected']) {
      const replay = await deliver(name, metadata, verification);
      expect(replay.statusCode).toBe(200);
      expect(replay.json().data.outcome).toBe('replayed');
    }
    expect(await snapshot()).toEqual(before);
    expect(before.signer).toMatchObject({ state: 'VERIFICATION_REJECTED', verificationAttempts: 1 });
  });
});

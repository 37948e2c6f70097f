import { createHash } from 'node:crypto';
import { cedulaCheckDigit } from '@provee/domain';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { contractLinks, contractSigners } from '../../db/schema.js';
import { createApplication } from '../../test/factories.js';
import { consentWithOfferedPin, signingLinkFromSms } from '../../test/signer.js';
import { manualClock, useTestApp } from '../../test/test-app.js';

const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
const randomTen = () => `4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Issue 26 §3: a signing link's token is an opaque random value (32 bytes, base64url); the server
 * keeps only its SHA-256 and finds the signer from it on every call. Nothing in the token can be
 * read (it used to be base64 JSON with the phone number, for 7 days, in a URL).
 */
describe('signing links: opaque tokens stored hashed', () => {
  const clock = manualClock(new Date('2026-11-23T12:00:00Z'));
  const t = useTestApp({ NIP_PREFILL: 'true', BUREAU_SYNC_WAIT_MS: '2000' }, undefined, { clock });

  async function approvedShopkeeper() {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()) });
    await consentWithOfferedPin(t.app, user);
    return user;
  }
  async function issueLink(userId: string) {
    const { res, url, token } = await signingLinkFromSms(t.app, userId);
    return { url, token, linkId: res.json().data.result.link_id as string };
  }
  const view = (userId: string, token: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/users/SK/${userId}/contract-link`,
      headers: { authorization: `Bearer ${token}` },
    });

  /** The contract PDF, opened in a new window with the link's token in the query. */
  const pdf = (userId: string, token: string) =>
    t.app.inject({ method: 'GET', url: `/api/v1/users/SK/${userId}/contract?token=${encodeURIComponent(token)}` });

  it('the SMS link carries 32 random bytes, readable by nobody; the link row keeps only their SHA-256', async () => {
    const user = await approvedShopkeeper();
    const { url, token, linkId } = await issueLink(user.id);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const decoded = Buffer.from(token, 'base64url').toString('latin1');
    for (const secret of [user.phoneE164, user.phone, user.id, '"kind"', 'signer']) {
      expect(decoded).not.toContain(secret);
      expect(token).not.toContain(secret);
    }
    // The link's other query parameters stay as the SPEC describes them.
    expect([...url.searchParams.keys()].sort()).toEqual(
      ['collateral_full_name', 'titular_full_name', 'token', 'type', 'user_id', 'user_type_id'].sort(),
    );
    const [link] = await t.app.db.select().from(contractLinks).where(eq(contractLinks.id, linkId));
    expect(link!.tokenSha256).toBe(sha256(token));
    // Nowhere in the database is the token itself.
    expect(JSON.stringify(await t.app.db.select().from(contractLinks))).not.toContain(token);
    // It opens the signing page, and the signer is found from it.
    const res = await view(user.id, token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ user_id: user.id, person_type: 'titular' });
  });

  it('an unknown, altered or truncated token is a 401; another application’s token a 403', async () => {
    const user = await approvedShopkeeper();
    const other = await approvedShopkeeper();
    const { token } = await issueLink(user.id);
    const { token: othersToken } = await issueLink(other.id);
    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [flipped, token.slice(0, 20), 'x'.repeat(43), `${token}.${token}`]) {
      const res = await view(user.id, bad);
      expect(res.statusCode, bad).toBe(401);
      expect(res.json().readable_message).toMatch(/enlace/);
    }
    expect((await view(user.id, othersToken)).statusCode).toBe(403);
  });

  it('keeps the expiry, replacement and PDF-link semantics', async () => {
    const user = await approvedShopkeeper();
    const first = await issueLink(user.id);
    const second = await issueLink(user.id);
    // Replaced: the first stops at once.
    const replaced = await view(user.id, first.token);
    expect(replaced.statusCode).toBe(409);
    expect(replaced.json().code).toBe('LINK_USED');
    // The PDF opens in a new window with the token in the query.
    const opened = await pdf(user.id, second.token);
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toBe('application/pdf');
    // Past its lifetime the link is refused, reading included.
    clock.advance(t.app.config.CONTRACT_LINK_TTL_SECONDS + 1);
    const expired = await view(user.id, second.token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe('LINK_EXPIRED');
    const expiredPdf = await pdf(user.id, second.token);
    expect(expiredPdf.statusCode).toBe(401);
    const [signer] = await t.app.db.select().from(contractSigners).where(eq(contractSigners.userId, user.id));
    expect(signer).toBeTruthy();
  });
});

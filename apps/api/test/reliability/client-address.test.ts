import { cedulaCheckDigit } from '@provee/domain';
import { desc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { bureauConsents, contractSigners, smsOutbox } from '../../src/db/schema.js';
import { answerSimulatedChecks } from '../../src/test/jobs.js';
import { createApplication, createJpeg, createPng, userAuth } from '../../src/test/factories.js';
import { multipart } from '../../src/test/multipart.js';
import { codeRequest, createPhone } from '../../src/test/phone.js';
import { staffSession } from '../../src/test/staff.js';
import { createTestApp, manualClock, type TestApp, useTestApp, withTestApp } from '../../src/test/test-app.js';

const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
const randomTen = () => `4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

/** The load balancer (10.0.0.2), the client behind it, and what the client wrote itself. */
const PROXY = '10.0.0.2';
const CLIENT = '203.0.113.7';
const SPOOFED = '6.6.6.6';
/** What a proxy that appends (nginx's $proxy_add_x_forwarded_for, cloud load balancers) sends on. */
const appended = (written: string) => ({ 'x-forwarded-for': `${written}, ${CLIENT}` });

const config = (value: string) => loadConfig({ NODE_ENV: 'test', TRUST_PROXY: value });

/**
 * Issue 26 §3: behind a proxy the client's address is the one the proxy saw, never one the client
 * wrote in X-Forwarded-For. TRUST_PROXY names the hops (a count) or the proxies (addresses); `true`,
 * which trusted every hop, is refused at start.
 */
describe('TRUST_PROXY: a hop count or the proxies’ addresses', () => {
  it('parses a count and a list of addresses; refuses `true` and anything else, naming the variable', () => {
    expect(config('false').TRUST_PROXY).toBe(false);
    expect(config('0').TRUST_PROXY).toBe(false);
    expect(config('1').TRUST_PROXY).toBe(1);
    expect(config('2').TRUST_PROXY).toBe(2);
    expect(config('10.0.0.0/8, 192.168.1.10,::1').TRUST_PROXY).toBe('10.0.0.0/8,192.168.1.10,::1');
    expect(config('loopback').TRUST_PROXY).toBe('loopback');
    expect(loadConfig({ NODE_ENV: 'test' }).TRUST_PROXY).toBe(false);
    for (const bad of ['true', 'yes', '10.0.0.300', '10.0.0.0/33', 'proxy.internal', '-1', '1.5', '100']) {
      expect(() => config(bad), bad).toThrow(ConfigError);
      expect(() => config(bad), bad).toThrow(/TRUST_PROXY/);
    }
    expect(() => config('true')).toThrow(/número de proxies|direcciones/);
  });

  describe.each([
    ['a hop count', '1'],
    ['the proxy’s addresses', '10.0.0.0/8'],
  ])('behind an appending proxy, with %s', (_name, trust) => {
    const t = useTestApp({ TRUST_PROXY: trust });

    it('the client’s own X-Forwarded-For entry is not its address', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/ip',
        remoteAddress: PROXY,
        headers: appended(SPOOFED),
      });
      expect(res.json()).toEqual({ ip: CLIENT });
    });

    it('22 numbers from one client, each with another made-up address: the per-IP SMS cap still holds', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 22; i++) {
        const request = codeRequest(createPhone(), PROXY);
        const res = await t.app.inject({ ...request, headers: appended(`6.6.6.${i + 1}`) });
        statuses.push(res.statusCode);
      }
      expect(statuses.filter((status) => status === 200)).toHaveLength(t.app.config.SMS_NUMBERS_PER_IP_PER_HOUR);
      expect(statuses.slice(t.app.config.SMS_NUMBERS_PER_IP_PER_HOUR).every((status) => status === 429)).toBe(true);
    });
  });

  it('with the proxies’ addresses, a request that did not come through them keeps its own address', async () => {
    await withTestApp({ TRUST_PROXY: '10.0.0.0/8' }, async (t) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/ip',
        remoteAddress: '198.51.100.9',
        headers: appended(SPOOFED),
      });
      expect(res.json()).toEqual({ ip: '198.51.100.9' });
    });
  });
});

describe('evidence: the trusted client address, the connection’s address and the forwarded chain', () => {
  let t: TestApp;
  const clock = manualClock(new Date('2026-11-23T12:00:00Z'));
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: '1', NIP_PREFILL: 'true', BUREAU_SYNC_WAIT_MS: '2000' }, undefined, {
      clock,
    });
  });
  afterAll(() => t.close());

  const via = { remoteAddress: PROXY, headers: appended(SPOOFED) };

  it('the consent and the signature record all three', async () => {
    const user = await createApplication(t.app, { taxId: cedula(randomTen()) });
    const auth = userAuth(t.app, user);
    const nip = (
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/users/${user.id}/SK/nip`,
        remoteAddress: PROXY,
        headers: { ...auth, ...appended(SPOOFED) },
      })
    ).json().data.default_nip;
    const consent = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${user.id}/SK/nip`,
      remoteAddress: via.remoteAddress,
      headers: { ...auth, ...via.headers },
      payload: { nip },
    });
    expect(consent.statusCode, consent.body).toBe(200);
    const [row] = await t.app.db.select().from(bureauConsents).where(eq(bureauConsents.userId, user.id));
    expect(row).toMatchObject({ ip: CLIENT, peerIp: PROXY, forwardedFor: `${SPOOFED}, ${CLIENT}` });

    // The signature, through the same proxy.
    const { headers: staff } = await staffSession(t.app, 'analyst');
    const issued = await t.app.inject({
      method: 'POST',
      url: `/api/backoffice/applications/${user.id}/contract-links`,
      headers: staff,
      payload: { person_type: 'titular' },
    });
    expect(issued.statusCode, issued.body).toBe(200);
    const [sms] = await t.app.db
      .select()
      .from(smsOutbox)
      .where(like(smsOutbox.body, '%send-contract-sign%'))
      .orderBy(desc(smsOutbox.id))
      .limit(1);
    const token = new URL(/https?:\/\/\S+/.exec(sms!.body)![0]).searchParams.get('token')!;
    const bearer = { authorization: `Bearer ${token}` };
    const photos = multipart(
      {
        id_front: createJpeg({ width: 1280, height: 800 }),
        id_back: createJpeg({ width: 1281, height: 800 }),
        selfie: createJpeg({ width: 720, height: 960 }),
      },
      { person_type: 'titular', verification_type: 'VERIFICATION' },
    );
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/v1/users/SK/${user.id}/identity-documents`,
      headers: { ...bearer, ...photos.headers },
      payload: photos.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    clock.advance(t.app.config.IDENTITY_SIMULATOR_DELAY_MS / 1000 + 1);
    await answerSimulatedChecks(t.app);
    const signed = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/users/SK/${user.id}/contract`,
      remoteAddress: via.remoteAddress,
      headers: { ...bearer, ...via.headers },
      payload: {
        person_type: 'titular',
        signature: Buffer.from(createPng({ width: 280, height: 120 })).toString('base64'),
        metadata: '',
      },
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const [signer] = await t.app.db.select().from(contractSigners).where(eq(contractSigners.userId, user.id));
    expect(signer!.evidence).toMatchObject({ ip: CLIENT, peer_ip: PROXY, forwarded_for: `${SPOOFED}, ${CLIENT}` });
    const evidence = await t.app.inject({
      method: 'GET',
      url: `/api/v1/users/SK/${user.id}/contract/evidence`,
      headers: bearer,
    });
    expect(evidence.json().data.signers[0]).toMatchObject({
      ip: CLIENT,
      peer_ip: PROXY,
      forwarded_for: `${SPOOFED}, ${CLIENT}`,
    });
  });
});

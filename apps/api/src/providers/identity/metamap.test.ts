// Fixtures follow MetaMap's published deliveries: the x-signature scheme and the sample payload of
// https://docs.metamap.com/docs/configure-your-webhook-url, the events of
// https://docs.metamap.com/docs/webhooks, the verification_started body of
// https://docs.metamap.com/docs/webhook-specifications, and a verification_updated delivery
// (identityStatus, status, matiDashboardUrl, deviceFingerprint, details, flowId, timestamp)
// quoted in a public integration. Ids, metadata, IP and user agent are ours.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  mapMetamapStatus,
  metamapFlowId,
  parseMetamapEvent,
  verifyMetamapSignature,
  type MappedStatus,
} from './metamap.js';

const SECRET = 'TestWebhookSecret2026xyz';
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url));
const sign = (body: Buffer, secret = SECRET) => createHmac('sha256', secret).update(body).digest('hex');
const parse = (name: string) => parseMetamapEvent(JSON.parse(fixture(name).toString('utf8')));

describe('verifyMetamapSignature', () => {
  const body = fixture('verification-completed-verified');

  it('accepts the HMAC of the raw body, in either hex case', () => {
    expect(verifyMetamapSignature(body, sign(body), SECRET)).toBe(true);
    expect(verifyMetamapSignature(body, sign(body).toUpperCase(), SECRET)).toBe(true);
  });

  it('refuses a body with one changed byte, and the same JSON re-serialised', () => {
    const signature = sign(body);
    for (const at of [0, Math.floor(body.length / 2), body.length - 2]) {
      const changed = Buffer.from(body);
      changed[at]! ^= 0x01;
      expect(verifyMetamapSignature(changed, signature, SECRET)).toBe(false);
    }
    const compact = Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8'))));
    expect(verifyMetamapSignature(compact, signature, SECRET)).toBe(false);
  });

  it('refuses a missing, malformed, wrong or repeated header, and an empty secret', () => {
    const signature = sign(body);
    expect(verifyMetamapSignature(body, undefined, SECRET)).toBe(false);
    expect(verifyMetamapSignature(body, '', SECRET)).toBe(false);
    expect(verifyMetamapSignature(body, signature.slice(0, 63), SECRET)).toBe(false);
    expect(verifyMetamapSignature(body, `${signature}00`, SECRET)).toBe(false);
    expect(verifyMetamapSignature(body, `sha256=${signature}`, SECRET)).toBe(false);
    expect(verifyMetamapSignature(body, 'z'.repeat(64), SECRET)).toBe(false);
    expect(verifyMetamapSignature(body, Buffer.from(signature, 'hex').toString('base64'), SECRET)).toBe(false);
    expect(verifyMetamapSignature(body, sign(body, 'AnotherSecret2026abc'), SECRET)).toBe(false);
    expect(verifyMetamapSignature(body, [signature, signature], SECRET)).toBe(false);
    expect(verifyMetamapSignature(body, sign(body, ''), '')).toBe(false);
  });
});

describe('mapMetamapStatus', () => {
  it('maps the three decisions and nothing else', () => {
    expect(mapMetamapStatus('verified')).toBe('APPROVED');
    expect(mapMetamapStatus('reviewNeeded')).toBe('UNDER_REVIEW');
    expect(mapMetamapStatus('rejected')).toBe('REJECTED');
    for (const other of ['deleted', 'running', 'pending', 'postponed', 'Verified', 'toString', '', undefined]) {
      expect(mapMetamapStatus(other)).toBeNull();
    }
  });
});

describe('parseMetamapEvent', () => {
  const titular = { account_id: '7f0c2a4e-5b1d-4c8e-9a3f-2d6b8e1c4f70', account_type_id: 'SK', person_type: 'titular' };

  it('reads a completed verification: ids, flow, decision and our metadata', () => {
    expect(parse('verification-completed-verified')).toEqual({
      eventName: 'verification_completed',
      verificationId: '6583a1f2c4e9b2001d7f3a15',
      identityId: '6583a1f2c4e9b2001d7f3a13',
      flowId: '6375625eae9931001c574baa',
      status: 'APPROVED',
      metadata: titular,
    });
  });

  it.each<[string, MappedStatus | null]>([
    ['verification-completed-verified', 'APPROVED'],
    ['verification-completed-review-needed', 'UNDER_REVIEW'],
    ['verification-completed-rejected', 'REJECTED'],
    ['verification-updated-verified', 'APPROVED'],
    ['verification-updated-deleted', null],
    ['verification-started', null],
    ['step-completed', null],
    ['verification-inputs-completed', null],
    ['verification-expired', null],
  ])('%s → status %s', (name, status) => {
    const event = parse(name);
    expect(event?.status).toBe(status);
    expect(event?.verificationId).toBe('6583a1f2c4e9b2001d7f3a15');
    expect(event?.flowId).toBe('6375625eae9931001c574baa');
  });

  it('an unknown event carries no decision, even with an identityStatus', () => {
    const event = parseMetamapEvent({ eventName: 'verification_signed', identityStatus: 'verified' });
    expect(event).toMatchObject({ eventName: 'verification_signed', status: null, verificationId: null });
  });

  it('reads the guarantor metadata, and metadata given as a JSON string', () => {
    expect(parse('verification-completed-rejected')?.metadata?.person_type).toBe('collateral');
    const event = parseMetamapEvent({ eventName: 'verification_started', metadata: JSON.stringify(titular) });
    expect(event?.metadata).toEqual(titular);
  });

  it('keeps the signer id when the widget sent one (two guarantors share account and person type)', () => {
    const metadata = { ...titular, person_type: 'collateral', signer_id: '0b9f6c1e-2d7a-4c55-8e0b-61f1d2a3b4c5' };
    expect(parseMetamapEvent({ eventName: 'verification_completed', metadata })?.metadata).toEqual(metadata);
    expect(
      parseMetamapEvent({ eventName: 'verification_completed', metadata: { ...titular, signer_id: 7 } })?.metadata,
    ).toEqual(titular);
  });

  it('text holding NUL or half a surrogate pair is not text: no event (it ended in jsonb and failed with a 500; fuzzing suite)', () => {
    expect(parseMetamapEvent({ eventName: 'verification_\ud800started' })).toBeNull();
    expect(parseMetamapEvent({ eventName: 'a\u0000b' })).toBeNull();
    expect(
      parseMetamapEvent({ eventName: 'verification_started', metadata: { ...titular, account_id: 'a\udc00' } })
        ?.metadata,
    ).toBeNull();
    // A whole pair is text.
    expect(parseMetamapEvent({ eventName: 'verification_started 😀' })?.eventName).toBe('verification_started 😀');
  });

  it('metadata that is not ours is null', () => {
    for (const metadata of [
      undefined,
      null,
      'not json',
      { email: 'someone@example.com' },
      { ...titular, person_type: 'admin' },
      { ...titular, account_id: '' },
      { ...titular, account_id: 42 },
      [titular],
    ]) {
      expect(parseMetamapEvent({ eventName: 'verification_completed', metadata })?.metadata).toBeNull();
    }
  });

  it('is tolerant to missing fields and ignores ids that are not ids', () => {
    expect(parseMetamapEvent({ eventName: 'verification_completed' })).toEqual({
      eventName: 'verification_completed',
      verificationId: null,
      identityId: null,
      flowId: null,
      status: null,
      metadata: null,
    });
    const event = parseMetamapEvent({
      eventName: 'verification_completed',
      identityStatus: 'verified',
      resource: 'https://api.prod.metamap.com/v2/verifications/<script>',
      identity: '../../etc',
      flow: { id: 'flow_1' },
    });
    expect(event).toMatchObject({ verificationId: null, identityId: null, flowId: 'flow_1', status: 'APPROVED' });
    expect(parseMetamapEvent({ eventName: 'x', identity: 'abc123', verificationId: 'v1' })).toMatchObject({
      identityId: 'abc123',
      verificationId: 'v1',
    });
  });

  it('null when not an object or without an eventName', () => {
    for (const body of [null, undefined, 'verification_completed', 42, [], {}, { eventName: '' }, { eventName: 7 }]) {
      expect(parseMetamapEvent(body)).toBeNull();
    }
  });
});

describe('metamapFlowId', () => {
  const options = { flowId: 'flow-verification', reverificationFlowId: 'flow-reverification' };

  it('uses the re-verification flow only for a person MetaMap already knows', () => {
    expect(metamapFlowId(options, null)).toBe('flow-verification');
    expect(metamapFlowId(options, '')).toBe('flow-verification');
    expect(metamapFlowId(options, '6583a1f2c4e9b2001d7f3a13')).toBe('flow-reverification');
  });
});

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTokenService, VERIFIED_TOKENS_KEPT } from './tokens.js';

const key = randomBytes(32);

describe('tokens', () => {
  it('verifies what it issued, for the principal it was issued for', () => {
    const tokens = createTokenService(key, 3600);
    const { token } = tokens.issue({ kind: 'phone', phoneE164: '+18095551234' });
    expect(tokens.verify(token)).toEqual({ kind: 'phone', phoneE164: '+18095551234' });
  });

  it('refuses an expired token', () => {
    let now = Date.UTC(2026, 0, 1);
    const tokens = createTokenService(key, 60, () => now);
    const { token, expiresAt } = tokens.issue({ kind: 'phone', phoneE164: '+18095551234' });
    expect(expiresAt.getTime()).toBe(now + 60_000);
    now += 59_000;
    expect(tokens.verify(token)).not.toBeNull();
    now += 1_000;
    expect(tokens.verify(token)).toBeNull();
  });

  it('refuses a token whose payload was changed, or signed with another key', () => {
    const tokens = createTokenService(key, 3600);
    const { token } = tokens.issue({ kind: 'phone', phoneE164: '+18095551234' });
    const [payload, signature] = token.split('.');
    const body = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    body.sub.phoneE164 = '+18095559999';
    const forged = `${Buffer.from(JSON.stringify(body)).toString('base64url')}.${signature}`;
    expect(tokens.verify(forged)).toBeNull();
    expect(createTokenService(randomBytes(32), 3600).verify(token)).toBeNull();
    expect(tokens.verify('garbage')).toBeNull();
    expect(tokens.verify(`${token}.x`)).toBeNull();
  });

  it('remembers a verified token, and a remembered token still expires', () => {
    let now = Date.UTC(2026, 0, 1);
    const tokens = createTokenService(key, 60, () => now);
    const { token } = tokens.issue({ kind: 'user', userId: 'u1', phoneE164: '+18095551234' });
    expect(tokens.verify(token)).toEqual({ kind: 'user', userId: 'u1', phoneE164: '+18095551234' });
    expect(tokens.remembered()).toBe(1);
    expect(tokens.verify(token)).toEqual({ kind: 'user', userId: 'u1', phoneE164: '+18095551234' });
    expect(tokens.remembered()).toBe(1);
    now += 60_000;
    expect(tokens.verify(token)).toBeNull();
    expect(tokens.remembered()).toBe(0);
  });

  it('never remembers a forged or expired token', () => {
    let now = Date.UTC(2026, 0, 1);
    const tokens = createTokenService(key, 60, () => now);
    const { token } = tokens.issue({ kind: 'phone', phoneE164: '+18095551234' });
    const other = createTokenService(randomBytes(32), 60, () => now).issue({ kind: 'phone', phoneE164: '+1809' });
    expect(tokens.verify(other.token)).toBeNull();
    expect(tokens.verify(`${token.split('.')[0]}.${other.token.split('.')[1]}`)).toBeNull();
    now += 61_000;
    expect(tokens.verify(token)).toBeNull();
    expect(tokens.remembered()).toBe(0);
  });

  it(`remembers at most ${VERIFIED_TOKENS_KEPT} tokens, and one it let go of still verifies`, () => {
    const tokens = createTokenService(key, 3600);
    const issued = Array.from({ length: VERIFIED_TOKENS_KEPT + 1 }, (_, i) =>
      tokens.issue({ kind: 'phone', phoneE164: `+1809${String(i).padStart(7, '0')}` }),
    );
    for (const { token } of issued) expect(tokens.verify(token)).not.toBeNull();
    expect(tokens.remembered()).toBe(VERIFIED_TOKENS_KEPT);
    expect(tokens.verify(issued[0]!.token)).toEqual({ kind: 'phone', phoneE164: '+18090000000' });
    expect(tokens.remembered()).toBe(VERIFIED_TOKENS_KEPT);
  });
});

import type { FoundUser, PhoneAuthentication } from '@provee/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../../test/fetch-stub.js';
import { completeProof } from './complete-proof.js';

/** A proof's answer: the token and the phone's application (null: a new number). */
const proof = (token: string, user: FoundUser | null = null): PhoneAuthentication['data'] => ({
  authentication: { access_type: 'Bearer', access_token: token, expires_at: '2026-12-01T00:00:00.000Z' },
  phone_number: '',
  user,
});

describe('completeProof', () => {
  const leadIds: string[] = [];
  const otherCalls: string[] = [];
  beforeEach(() => {
    sessionStorage.clear();
    leadIds.length = 0;
    otherCalls.length = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url === '/ops/v1/lead-assignment') {
          leadIds.push(JSON.parse(String(init?.body)).lead_id);
          return json(201, { data: {} });
        }
        otherCalls.push(url);
        return json(500, { code: 'UNEXPECTED', message: url });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('one lead id per number: a second number in the tab gets its own, the same number keeps its', async () => {
    expect(completeProof(proof('token-a'), '8095551234', 'key')).toBe('/8095551234/about-you');
    completeProof(proof('token-a2'), '8095551234', 'key');
    completeProof(proof('token-b'), '8295550000', 'key');
    await vi.waitFor(() => expect(leadIds).toHaveLength(3));
    expect(leadIds[1]).toBe(leadIds[0]);
    expect(leadIds[2]).not.toBe(leadIds[0]);
  });

  it('a different number forgets the previous person (values, drafts, token), keeps the campaign', async () => {
    completeProof(proof('token-a'), '8095551234', 'key');
    sessionStorage.setItem('values', JSON.stringify({ name: 'Primera' }));
    sessionStorage.setItem('draft_tax_id', JSON.stringify({ value: '001-0000000-1' }));
    sessionStorage.setItem('utm_source', 'radio');
    completeProof(proof('token-b'), '8295550000', 'key');
    expect(sessionStorage.getItem('values')).toBeNull();
    expect(sessionStorage.getItem('draft_tax_id')).toBeNull();
    expect(sessionStorage.getItem('clientToken')).toBe('Bearer token-b');
    expect(sessionStorage.getItem('proven_phone')).toBe('8295550000');
    expect(sessionStorage.getItem('utm_source')).toBe('radio');
  });

  it('a known number goes where its application stands, from the proof answer alone: no lookup', async () => {
    const user: FoundUser = {
      user_id: 'u-1',
      id: 'u-1',
      user_type: 'SK',
      next_step: 'BUSINESS_ADDRESS',
      status: 'IN_PROGRESS',
      request: { next_step: 'BUSINESS_ADDRESS', status: 'IN_PROGRESS', welcome_screen_number: 1 },
      avals: [],
      phone_number: '8095551234',
    };
    expect(completeProof(proof('token-a', user), '8095551234', 'key')).toBe('/8095551234/u-1/search-address');
    await vi.waitFor(() => expect(leadIds).toHaveLength(1));
    expect(otherCalls).toEqual([]);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { completeProof } from './complete-proof.js';

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('completeProof', () => {
  const leadIds: string[] = [];
  beforeEach(() => {
    sessionStorage.clear();
    leadIds.length = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url === '/ops/v1/lead-assignment') {
          leadIds.push(JSON.parse(String(init?.body)).lead_id);
          return json(201, { data: {} });
        }
        return json(404, {
          code: 'USER_NOT_FOUND',
          message: 'not found',
          readable_message: 'Aún no tienes un registro.',
        });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('one lead id per number: a second number in the tab gets its own, the same number keeps its', async () => {
    expect(await completeProof('token-a', '8095551234', 'key')).toBe('/8095551234/about-you');
    await completeProof('token-a2', '8095551234', 'key');
    await completeProof('token-b', '8295550000', 'key');
    await vi.waitFor(() => expect(leadIds).toHaveLength(3));
    expect(leadIds[1]).toBe(leadIds[0]);
    expect(leadIds[2]).not.toBe(leadIds[0]);
  });

  it('a different number forgets the previous person (values, drafts, token), keeps the campaign', async () => {
    await completeProof('token-a', '8095551234', 'key');
    sessionStorage.setItem('values', JSON.stringify({ name: 'Primera' }));
    sessionStorage.setItem('draft_tax_id', JSON.stringify({ value: '001-0000000-1' }));
    sessionStorage.setItem('utm_source', 'radio');
    await completeProof('token-b', '8295550000', 'key');
    expect(sessionStorage.getItem('values')).toBeNull();
    expect(sessionStorage.getItem('draft_tax_id')).toBeNull();
    expect(sessionStorage.getItem('clientToken')).toBe('Bearer token-b');
    expect(sessionStorage.getItem('proven_phone')).toBe('8295550000');
    expect(sessionStorage.getItem('utm_source')).toBe('radio');
  });
});

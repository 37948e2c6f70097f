import { afterEach, describe, expect, it } from 'vitest';
import { borrowSession, lendSessionToOtherTabs } from './session-share.js';

const token = (exp: number) => `Bearer ${btoa(JSON.stringify({ exp })).replace(/=+$/, '')}.firma`;
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

/** Another tab of the site: its own channel (a tab's own messages never reach itself). */
function otherTab(answer: (ask: { id: string; phone: string | null }) => object | null) {
  const channel = new BroadcastChannel('provee-session');
  channel.onmessage = (event: MessageEvent<{ type: string; id: string; phone: string | null }>) => {
    if (event.data.type !== 'ask') return;
    const reply = answer(event.data);
    if (reply) channel.postMessage(reply);
  };
  return channel;
}

describe('a second tab borrows the session of an open tab (issue 27)', () => {
  const channels: BroadcastChannel[] = [];
  afterEach(() => {
    for (const channel of channels.splice(0)) channel.close();
  });

  it('stores the session lent for the number it asked about', async () => {
    const lent = token(inAnHour());
    channels.push(otherTab(({ id }) => ({ type: 'lend', id, phone: '8095551234', token: lent })));
    await expect(borrowSession({ phone: '8095551234' })).resolves.toBe(true);
    expect(sessionStorage.getItem('clientToken')).toBe(lent);
    expect(sessionStorage.getItem('proven_phone')).toBe('8095551234');
    expect(sessionStorage.getItem('anonymous_id')).toBe('anon-8095551234');
  });

  it("takes no other number's session, and answers false when no tab lends one", async () => {
    channels.push(otherTab(({ id }) => ({ type: 'lend', id, phone: '8295550000', token: token(inAnHour()) })));
    await expect(borrowSession({ phone: '8095551234' }, 100)).resolves.toBe(false);
    expect(sessionStorage.getItem('clientToken')).toBeNull();
  });

  it("another person's drafts in this tab are dropped when it borrows a session", async () => {
    sessionStorage.setItem('proven_phone', '8295550000');
    sessionStorage.setItem('draft_tax_id', '22300000000');
    channels.push(otherTab(({ id }) => ({ type: 'lend', id, phone: '8095551234', token: token(inAnHour()) })));
    await expect(borrowSession({ phone: '8095551234' })).resolves.toBe(true);
    expect(sessionStorage.getItem('draft_tax_id')).toBeNull();
    expect(sessionStorage.getItem('proven_phone')).toBe('8095551234');
  });

  it('a tab with no number in its address asks for its application; asking for nothing asks no tab', async () => {
    const asked: unknown[] = [];
    channels.push(otherTab((ask) => (asked.push(ask), null)));
    await expect(borrowSession({ phone: null }, 50)).resolves.toBe(false);
    await expect(borrowSession({ phone: null, userId: 'u-1' }, 50)).resolves.toBe(false);
    expect(asked).toEqual([expect.objectContaining({ phone: null, userId: 'u-1' })]);
  });

  it('a tab lends only a valid session, and only for its own number or application', async () => {
    sessionStorage.setItem('proven_phone', '8095551234');
    const userToken = (exp: number) =>
      `Bearer ${btoa(JSON.stringify({ exp, sub: { kind: 'user', userId: 'u-1' } })).replace(/=+$/, '')}.firma`;
    sessionStorage.setItem('clientToken', userToken(inAnHour()));
    lendSessionToOtherTabs();
    const ask = (phone: string | null, userId: string | null = null) =>
      new Promise<unknown>((resolve) => {
        const channel = new BroadcastChannel('provee-session');
        channels.push(channel);
        const id = crypto.randomUUID();
        setTimeout(() => resolve(null), 150);
        channel.onmessage = (event: MessageEvent<{ id: string }>) => event.data.id === id && resolve(event.data);
        channel.postMessage({ type: 'ask', id, phone, userId });
      });
    await expect(ask('8095551234')).resolves.toMatchObject({ type: 'lend', phone: '8095551234' });
    await expect(ask('8295550000')).resolves.toBeNull();
    await expect(ask(null, 'u-1')).resolves.toMatchObject({ type: 'lend', phone: '8095551234' });
    await expect(ask(null, 'u-2')).resolves.toBeNull();
    await expect(ask(null)).resolves.toBeNull();
    sessionStorage.setItem('clientToken', userToken(Math.floor(Date.now() / 1000) - 1));
    await expect(ask('8095551234')).resolves.toBeNull();
  });
});

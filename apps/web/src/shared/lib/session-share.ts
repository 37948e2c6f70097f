import { SESSION_KEYS, anonymousId } from '@provee/domain';
import { forgetPerson } from './forget-person.js';
import { provenPhone } from './proven-phone.js';
import { session } from './session.js';
import { sessionUserId } from './session-owner.js';

/**
 * A second tab of the same person (issue 27, docs/decisions/025). The session lives in each tab's
 * sessionStorage (SPEC §3), so a tab opened by typing a step's address or a saved link starts
 * without it. Such a tab asks the open tabs of this site, over a BroadcastChannel (same origin
 * only), for the session of the number in its address; a tab holding a valid one lends it. No tab
 * open: the number is proven again. Nothing is written to storage that outlives the tabs.
 */
const CHANNEL = 'provee-session';

interface Ask {
  type: 'ask';
  id: string;
  /** The number of the tab's address, when it has one. */
  phone: string | null;
  /** The application of the tab's address, when it has one (a screen whose address has no number). */
  userId: string | null;
}
interface Lend {
  type: 'lend';
  id: string;
  phone: string;
  token: string;
}

const supported = () => typeof BroadcastChannel !== 'undefined';

let lending = false;

/**
 * This tab lends its session to another tab of the same number that asks. Started by the screens
 * a tab with a session shows (the steps, the proof's end), once per tab.
 */
export function lendSessionToOtherTabs(): void {
  if (lending || !supported()) return;
  lending = true;
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<Ask>) => {
    if (event.data?.type !== 'ask') return;
    const phone = provenPhone();
    const token = session.get(SESSION_KEYS.clientToken);
    if (!phone || !token) return;
    // Only to a tab of the same person: its address names this number, or else this application.
    const asked = event.data;
    if (asked.phone ? asked.phone !== phone : !asked.userId || asked.userId !== sessionUserId()) return;
    channel.postMessage({ type: 'lend', id: event.data.id, phone, token } satisfies Lend);
  };
}

/**
 * Asks the open tabs for the session of the number in this tab's address (`phone`), or, with no
 * number there, of its application (`userId`); true once this tab holds it.
 */
export function borrowSession(
  { phone, userId = null }: { phone: string | null; userId?: string | null },
  waitMs = 400,
): Promise<boolean> {
  if (!phone && !userId) return Promise.resolve(false);
  if (!supported()) return Promise.resolve(false);
  return new Promise((resolve) => {
    const channel = new BroadcastChannel(CHANNEL);
    const id = crypto.randomUUID();
    const finish = (borrowed: boolean) => {
      clearTimeout(timer);
      channel.close();
      resolve(borrowed);
    };
    const timer = setTimeout(() => finish(false), waitMs);
    channel.onmessage = (event: MessageEvent<Lend>) => {
      const lent = event.data;
      if (lent?.type !== 'lend' || lent.id !== id || (phone !== null && lent.phone !== phone)) return;
      // Another person's drafts never fill this one's steps (a shared phone).
      if (session.get(SESSION_KEYS.provenPhone) !== lent.phone) forgetPerson();
      session.set(SESSION_KEYS.clientToken, lent.token);
      session.set(SESSION_KEYS.phoneNumber, lent.phone);
      session.set(SESSION_KEYS.anonymousId, anonymousId(lent.phone));
      session.set(SESSION_KEYS.provenPhone, lent.phone);
      finish(true);
    };
    channel.postMessage({ type: 'ask', id, phone, userId } satisfies Ask);
  });
}

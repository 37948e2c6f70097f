import { useState } from 'react';

/** The wait before another code can be asked for; a new `key` starts its <Countdown> again. */
export interface ResendWait {
  key: number;
  seconds: number;
  waiting: boolean;
}

/** What a code screen shows about sending the code again (CodeForm's resend block). */
export interface Resend {
  wait: ResendWait;
  /** A new code went out: the screen says so while this is true. */
  sent: boolean;
  /** The countdown reached zero: the resend button turns on. */
  finish: () => void;
  /** A send (or the server's Retry-After) sets a new wait. */
  restart: (seconds: number, waiting?: boolean) => void;
  /** Says a new code went out, for `forMs` (or until `hideSent`). */
  showSent: (forMs?: number) => void;
  hideSent: () => void;
}

/** The resend state of a code screen, starting from `initial` (the wait the screen arrives with). */
export function useResend(initial: () => { seconds: number; waiting: boolean }): Resend {
  const [wait, setWait] = useState<ResendWait>(() => ({ key: 0, ...initial() }));
  const [sent, setSent] = useState(false);
  return {
    wait,
    sent,
    finish: () => setWait((current) => ({ ...current, waiting: false })),
    restart: (seconds, waiting = true) => setWait((current) => ({ key: current.key + 1, seconds, waiting })),
    showSent: (forMs) => {
      setSent(true);
      if (forMs !== undefined) setTimeout(() => setSent(false), forMs);
    },
    hideSent: () => setSent(false),
  };
}

import { useEffect, useRef, useState } from 'react';

/** 90 → '01 : 30' (SPEC: mm : ss). */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.ceil(totalSeconds));
  const mm = String(Math.floor(seconds / 60)).padStart(2, '0');
  const ss = String(seconds % 60).padStart(2, '0');
  return `${mm} : ${ss}`;
}

interface CountdownProps {
  /** Seconds to count from. To start again, give the component a new `key`. */
  seconds: number;
  onTick?: (secondsLeft: number) => void;
  onDone?: () => void;
  /** How the seconds left read (default mm : ss). */
  format?: (secondsLeft: number) => string;
}

/** Counts down against the clock (not by summing timers), so a sleeping tab does not drift. */
export function Countdown({ seconds, onTick, onDone, format = formatCountdown }: CountdownProps) {
  const [left, setLeft] = useState(seconds);
  const callbacks = useRef({ onTick, onDone });
  useEffect(() => {
    callbacks.current = { onTick, onDone };
  });
  useEffect(() => {
    // Nothing to wait for (a server that says 0 s): done at once, or a resend button would stay off.
    if (seconds <= 0) {
      callbacks.current.onDone?.();
      return;
    }
    const endsAt = Date.now() + seconds * 1000;
    let last = seconds;
    const timer = setInterval(() => {
      // Rounded up: a second shows until it has fully passed, and 0 means the time is really up.
      const remaining = Math.max(0, Math.ceil((endsAt - Date.now()) / 1000));
      if (remaining === last) return;
      last = remaining;
      setLeft(remaining);
      callbacks.current.onTick?.(remaining);
      if (remaining === 0) {
        clearInterval(timer);
        callbacks.current.onDone?.();
      }
    }, 250);
    return () => clearInterval(timer);
  }, [seconds]);
  return (
    <span className="countdown" role="timer" aria-live="off">
      {format(left)}
    </span>
  );
}

import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Countdown, formatCountdown } from './countdown.js';

/** A countdown from `seconds` on a fake clock: what it calls when done, and what it shows. */
function startCountdown(seconds: number) {
  vi.useFakeTimers();
  const onDone = vi.fn();
  render(<Countdown seconds={seconds} onDone={onDone} />);
  return { onDone, shown: () => screen.getByRole('timer').textContent };
}

describe('Countdown', () => {
  afterEach(() => vi.useRealTimers());

  it.each([
    [60, '01 : 00'],
    [59, '00 : 59'],
    [300, '05 : 00'],
    [0, '00 : 00'],
    [-3, '00 : 00'],
  ])('formats %i s as %s', (seconds, text) => {
    expect(formatCountdown(seconds)).toBe(text);
  });

  it('counts down to zero and says so once', () => {
    const { onDone, shown } = startCountdown(3);
    expect(shown()).toBe('00 : 03');
    act(() => vi.advanceTimersByTime(1000));
    expect(shown()).toBe('00 : 02');
    act(() => vi.advanceTimersByTime(5000));
    expect(shown()).toBe('00 : 00');
    expect(onDone).toHaveBeenCalledTimes(1);
  });

  it('reaches 0 only when the time is really up, and then says so', () => {
    const { onDone, shown } = startCountdown(3);
    act(() => vi.advanceTimersByTime(2_750));
    expect(shown()).toBe('00 : 01');
    expect(onDone).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(250));
    expect(shown()).toBe('00 : 00');
    expect(onDone).toHaveBeenCalledTimes(1);
  });

  it('nothing to wait for (0 s): done at once', () => {
    const { onDone } = startCountdown(0);
    expect(onDone).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(5_000));
    expect(onDone).toHaveBeenCalledTimes(1);
  });

  it('a clock that jumps (a sleeping tab) still ends, ticking the second it lands on', () => {
    vi.useFakeTimers();
    const onTick = vi.fn();
    const onDone = vi.fn();
    render(<Countdown seconds={300} onTick={onTick} onDone={onDone} format={(s) => `${s}s`} />);
    expect(screen.getByRole('timer').textContent).toBe('300s');
    act(() => {
      vi.setSystemTime(Date.now() + 400_000);
      vi.advanceTimersByTime(250);
    });
    expect(onTick).toHaveBeenCalledWith(0);
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('timer').textContent).toBe('0s');
  });
});

import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Countdown, formatCountdown } from './countdown.js';

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
    vi.useFakeTimers();
    const onDone = vi.fn();
    render(<Countdown seconds={3} onDone={onDone} />);
    expect(screen.getByRole('timer').textContent).toBe('00 : 03');
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('timer').textContent).toBe('00 : 02');
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.getByRole('timer').textContent).toBe('00 : 00');
    expect(onDone).toHaveBeenCalledTimes(1);
  });
});

import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Stepper } from './stepper.js';

describe('Stepper', () => {
  it("shows 'Paso 1/3 Registro' over 5 bars with the first one done", () => {
    const { container } = render(<Stepper step={1} total={3} title="Registro" bars={5} filled={1} />);
    expect(container.textContent).toContain('Paso 1/3 Registro');
    expect(container.querySelectorAll('.stepper-bar')).toHaveLength(5);
    expect(container.querySelectorAll('.stepper-bar.is-done')).toHaveLength(1);
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('1');
  });
});

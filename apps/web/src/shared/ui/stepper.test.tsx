import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Stepper } from './stepper.js';

const shown = (element: React.ReactElement) => {
  const { container, unmount } = render(element);
  const result = {
    label: container.querySelector('.stepper-label')?.textContent,
    bars: container.querySelectorAll('.stepper-bar').length,
    done: container.querySelectorAll('.stepper-bar.is-done').length,
    valueNow: screen.getByRole('progressbar').getAttribute('aria-valuenow'),
  };
  unmount();
  return result;
};

describe('Stepper', () => {
  it("registration: 'Paso 1/3 Registro' over 5 bars, one more done per screen up to the PIN", () => {
    expect(shown(<Stepper phase="registration" filled={1} />)).toEqual({
      label: 'Paso 1/3 Registro',
      bars: 5,
      done: 1,
      valueNow: '1',
    });
    expect(shown(<Stepper phase="registration" filled={5} />)).toEqual({
      label: 'Paso 1/3 Registro',
      bars: 5,
      done: 5,
      valueNow: '5',
    });
  });

  it("evaluation: 'Paso 2/3 Evaluación' on the same five bars (no change of scale after the PIN)", () => {
    expect(shown(<Stepper phase="evaluation" filled={1} />)).toEqual({
      label: 'Paso 2/3 Evaluación',
      bars: 5,
      done: 1,
      valueNow: '1',
    });
  });
});

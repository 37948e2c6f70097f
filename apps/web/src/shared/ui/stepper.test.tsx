import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { REGISTRATION_SCREENS, Stepper } from './stepper.js';

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
  it("registration: each of the six screens says where it is, 'Paso 1/6' to the PIN's 'Paso 6/6' (SPEC §2.3 6)", () => {
    expect(REGISTRATION_SCREENS.map((at) => shown(<Stepper phase="registration" screen={at} />))).toEqual(
      [1, 2, 3, 4, 5, 6].map((step) => ({
        label: `Paso ${step}/6 Registro`,
        bars: 6,
        done: step,
        valueNow: String(step),
      })),
    );
  });

  it("evaluation: 'Paso 2/3 Evaluación' over its five bars", () => {
    expect(shown(<Stepper phase="evaluation" filled={1} />)).toEqual({
      label: 'Paso 2/3 Evaluación',
      bars: 5,
      done: 1,
      valueNow: '1',
    });
  });
});

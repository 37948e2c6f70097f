import { screen } from '@testing-library/react';
import { Route } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createPublicConfig } from '../../../test/public-config.js';
import { renderScreenAt } from '../../../test/render-screen.js';
import type { CodeRequestOutcome } from '../lib/code-state.js';
import { CodeRoute } from './code.js';

function renderCode(state: CodeRequestOutcome | null) {
  return renderScreenAt(
    { pathname: '/home/8095551234/code', state },
    <Route path="/home/:phoneNumber/code" element={<CodeRoute />} />,
    createPublicConfig('do'),
  );
}

const subtitle = () => document.querySelector('.page-subtitle')?.textContent?.replace(/\s/g, ' ');

describe('the code screen says what is true (issue 27)', () => {
  it('a code sent now: the SMS text and the resend countdown', () => {
    renderCode({
      at: Date.now(),
      sent: { resend_after_seconds: 60, expires_at: new Date(Date.now() + 600_000).toISOString() },
    });
    expect(subtitle()).toBe('Escribe el código de 6 dígitos que enviamos por SMS al +1 809 555 1234');
    expect(screen.getAllByRole('timer').map((timer) => timer.textContent)).toEqual(['01 : 00']);
  });

  it('none sent (the resend interval holds): the last code, how long it still works, when to ask again', () => {
    renderCode({
      at: Date.now(),
      notSent: { retry_after_seconds: 42, code_expires_at: new Date(Date.now() + 582_000).toISOString() },
    });
    expect(subtitle()).toBe('Escribe el último código que te enviamos por SMS al +1 809 555 1234');
    expect(screen.getByText(/^Ese código vence en/).textContent).toBe('Ese código vence en 09 : 42');
    expect(screen.getByText(/^Podrás pedir otro código en/).textContent).toBe('Podrás pedir otro código en 00 : 42');
  });

  it('none sent and none works (locked by wrong tries): only when a new one can be asked', () => {
    renderCode({ at: Date.now(), notSent: { retry_after_seconds: 30 } });
    expect(subtitle()).toBe('Pide un código nuevo para el +1 809 555 1234');
    expect(screen.queryByText(/^Ese código vence en/)).toBeNull();
    expect(screen.getByText(/^Podrás pedir otro código en/).textContent).toBe('Podrás pedir otro código en 00 : 30');
  });

  it('a session proven again says why', () => {
    renderCode({ at: Date.now(), resume: true });
    expect(screen.getByRole('note').textContent).toBe(
      'Tu registro está guardado. Para seguir, vuelve a confirmar tu número.',
    );
  });
});

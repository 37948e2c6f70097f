import { screen, waitFor } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { uiState } from '../../../shared/lib/ui-state.js';
import { renderScreenAt } from '../../../test/render-screen.js';
import { ResumeRoute } from './resume.js';

const TOKEN = 'a'.repeat(43);

function renderResume(token: string) {
  return renderScreenAt(
    `/r/${token}`,
    <>
      <Route path="/r/:token" element={<ResumeRoute />} />
      <Route path="/home" element={<p>inicio</p>} />
      <Route path="/home/:phoneNumber" element={<p>inicio con el número</p>} />
    </>,
  );
}

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('a reminder’s link (/r/:token)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    uiState.reset();
  });

  it('spends the link once and opens the entry screen with the number it was sent to', async () => {
    const fetch = vi.fn(async () => answer(200, { data: { phone_number: '8095551234', path: '/home/8095551234' } }));
    vi.stubGlobal('fetch', fetch);
    renderResume(TOKEN);
    expect(await screen.findByText('inicio con el número')).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/resume-links');
    expect(JSON.parse(String(init.body))).toEqual({ token: TOKEN });
  });

  it('a link used or expired says so in Spanish and offers the entry screen', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        answer(410, {
          code: 'RESUME_LINK_INVALID',
          message: 'resume link used, expired or unknown',
          readable_message: 'Este enlace ya no funciona. Escribe tu número para continuar donde te quedaste.',
        }),
      ),
    );
    renderResume('b'.repeat(43));
    expect(
      await screen.findByText('Este enlace ya no funciona. Escribe tu número para continuar donde te quedaste.'),
    ).toBeTruthy();
    screen.getByRole('button', { name: 'Continuar' }).click();
    await waitFor(() => expect(screen.getByText('inicio')).toBeTruthy());
  });
});

import type { CountryCode } from '@provee/domain';
import { act, screen } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPublicConfig } from '../test/public-config.js';
import { setCopyCountry } from '../shared/lib/copy.js';
import { renderLanding } from './prerender.js';
import { AppProviders } from './providers.js';
import { AppRouter } from './router.js';

/** A token the landing takes as proof of `phone` for an hour (only its body is read in the browser). */
function proveInThisTab(phone: string) {
  const body = btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600 }));
  sessionStorage.setItem('clientToken', `Bearer ${body}.firma`);
  sessionStorage.setItem('proven_phone', phone);
  sessionStorage.setItem('phone_number', phone);
}

let root: Root | undefined;
let container: HTMLElement | undefined;

/** The server's HTML for the landing at `path`, then main.tsx's hydration of it (React's development build warns of any mismatch). */
async function hydrateAt(path: string, country: CountryCode = 'do') {
  const config = createPublicConfig(country, { testMode: true });
  const html = renderLanding(config);
  setCopyCountry(country);
  window.history.replaceState(null, '', path);
  container = document.body.appendChild(document.createElement('div'));
  container.innerHTML = html;
  const serverHeading = container.querySelector('h1')?.textContent;
  await act(async () => {
    root = hydrateRoot(
      container!,
      <AppProviders config={config}>
        <AppRouter />
      </AppProviders>,
    );
  });
  return { html, serverHeading };
}

describe('the prerendered landing (app/prerender.tsx)', () => {
  afterEach(() => {
    act(() => root?.unmount());
    container?.remove();
    vi.restoreAllMocks();
    setCopyCountry('do');
  });

  it.each(['do', 'mx'] as const)(
    '%s: the server HTML has the landing, and the browser hydrates it as it is',
    async (country) => {
      const errors = vi.spyOn(console, 'error');
      const { html, serverHeading } = await hydrateAt('/home', country);
      expect(serverHeading).toBe('Surte tu negocio con Provee');
      expect(html).toContain(country === 'do' ? '+1' : '+52');
      expect(html).toContain('Modo de prueba');
      expect(errors).not.toHaveBeenCalled();
      expect(screen.getByRole('button', { name: 'Continuar' })).toHaveProperty('disabled', true);
    },
  );

  it('what sessionStorage knows (the stored, proven number) shows after hydration, with no mismatch', async () => {
    proveInThisTab('8095551234');
    const errors = vi.spyOn(console, 'error');
    const { html } = await hydrateAt('/home');
    expect(html).not.toContain('8095551234');
    expect(errors).not.toHaveBeenCalled();
    expect(screen.getByLabelText<HTMLInputElement>('Teléfono celular').value).toBe('8095551234');
    expect(screen.getByRole('button', { name: 'Cambiar número télefonico' })).toBeTruthy();
  });

  it('/ hydrates the same HTML, then takes the address /home with its query', async () => {
    const errors = vi.spyOn(console, 'error');
    await hydrateAt('/?utm_source=radio');
    expect(errors).not.toHaveBeenCalled();
    expect(window.location.pathname + window.location.search).toBe('/home?utm_source=radio');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Surte tu negocio con Provee');
  });
});

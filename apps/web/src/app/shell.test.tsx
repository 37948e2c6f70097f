import type { PublicConfig } from '@provee/domain';
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigContext } from '../shared/lib/config.js';
import { uiState } from '../shared/lib/ui-state.js';
import { AppShell } from './shell.js';
import { createPublicConfig } from '../test/public-config.js';

const redirect = vi.hoisted(() => vi.fn());
vi.mock('../shared/lib/navigation.js', () => ({ fullPageRedirect: redirect }));

const config = createPublicConfig('do', {
  supportChatNumber: '+1 809 555 0199',
  appStoreUrl: 'https://store.example/provee',
});

function renderShell(overrides: Partial<PublicConfig> = {}) {
  return render(
    <ConfigContext value={{ ...config, ...overrides }}>
      <MemoryRouter initialEntries={['/x']}>
        <Routes>
          <Route element={<AppShell />}>
            <Route path="/x" element={<p>pantalla</p>} />
          </Route>
        </Routes>
      </MemoryRouter>
    </ConfigContext>,
  );
}

describe('AppShell', () => {
  afterEach(() => {
    uiState.reset();
    redirect.mockReset();
  });

  it('renders the screen, the main landmark and the help chat link', () => {
    renderShell();
    expect(screen.getByRole('main').textContent).toContain('pantalla');
    const help = screen.getByRole('link', { name: 'Tengo dudas con mi registro' });
    expect(help.getAttribute('href')).toBe('https://wa.me/18095550199?text=Tengo%20dudas%20con%20mi%20registro');
  });

  it('shows the test-mode banner only while the dev tools are on', () => {
    renderShell({ testMode: true });
    expect(screen.getByRole('complementary', { name: 'Modo de prueba' }).textContent).toBe(
      'Modo de prueba: los mensajes son simulados.',
    );
  });

  it('says when contracts are sealed with a development certificate, with or without the dev tools', () => {
    renderShell({ testMode: true, developmentSeal: true });
    expect(screen.getByRole('complementary', { name: 'Modo de prueba' }).textContent).toBe(
      'Modo de prueba: mensajes y sellos simulados.',
    );
    cleanup();
    renderShell({ developmentSeal: true });
    expect(screen.getByRole('complementary', { name: 'Modo de prueba' }).textContent).toBe(
      'Modo de prueba: contratos con sello de prueba.',
    );
  });

  it('shows no test-mode banner otherwise', () => {
    renderShell();
    expect(screen.queryByRole('complementary', { name: 'Modo de prueba' })).toBeNull();
  });

  it('shows the spinner while a request is in flight', () => {
    renderShell();
    expect(screen.queryByRole('status')).toBeNull();
    act(() => uiState.startLoading());
    expect(screen.getByRole('status').textContent).toContain('Cargando');
    act(() => uiState.stopLoading());
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('a redirection URL in state sends the browser there', () => {
    renderShell();
    expect(redirect).not.toHaveBeenCalled();
    act(() => uiState.redirect('https://partner.example/continue'));
    expect(redirect).toHaveBeenCalledWith('https://partner.example/continue');
  });
});

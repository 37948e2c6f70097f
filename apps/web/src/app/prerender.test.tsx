import type { CountryCode } from '@provee/domain';
import { act, screen } from '@testing-library/react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPublicConfig } from '../test/public-config.js';
import { setCopyCountry } from '../shared/lib/copy.js';
import { renderLanding, renderPreviews } from './prerender.js';
import { AppProviders } from './providers.js';
import { AppRouter, PREVIEWED_SCREENS, previewedScreen } from './router.js';

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

describe('the previewed screens (app/prerender.tsx renderPreviews, docs/decisions/019)', () => {
  afterEach(() => {
    act(() => root?.unmount());
    container?.remove();
    vi.restoreAllMocks();
    sessionStorage.clear();
  });

  /**
   * The server's preview of the screen at `path` (rendered before `before` runs, as the server has
   * no tab), then what main.tsx does: load the screen, render over the preview.
   */
  async function replaceAt(path: string, before?: () => void) {
    const config = createPublicConfig('do', { testMode: true });
    const pathname = path.split('?')[0]!;
    const preview = (await renderPreviews(config)).find(
      ({ path: pattern }) => pattern === previewedScreen(pathname)?.path,
    );
    before?.();
    setCopyCountry('do');
    window.history.replaceState(null, '', path);
    container = document.body.appendChild(document.createElement('div'));
    container.innerHTML = preview!.html;
    const previewDom = container.cloneNode(true) as HTMLElement;
    await previewedScreen(pathname)!.preload();
    await act(async () => {
      root = createRoot(container!);
      root.render(
        <AppProviders config={config}>
          <AppRouter />
        </AppProviders>,
      );
    });
    return previewDom;
  }

  /**
   * What the eye sees of `element`: its markup without React's comment markers and generated ids
   * (useId differs between the server and the browser) and without attributes that only say what
   * a field holds (the browser app sets those as properties).
   */
  function visible(element: Element): string {
    const copy = element.cloneNode(true) as Element;
    const walker = document.createTreeWalker(copy, NodeFilter.SHOW_COMMENT);
    const comments: Node[] = [];
    while (walker.nextNode()) comments.push(walker.currentNode);
    for (const comment of comments) comment.parentNode!.removeChild(comment);
    for (const node of copy.querySelectorAll('*'))
      for (const name of ['id', 'for', 'selected', 'value']) node.removeAttribute(name);
    copy.normalize();
    return copy.innerHTML;
  }

  it('a preview for each previewed screen, the screen as it first shows', async () => {
    const previews = await renderPreviews(createPublicConfig('do', { testMode: true }));
    expect(previews.map(({ path }) => path)).toEqual(PREVIEWED_SCREENS.map(({ path }) => path));
    const [aboutYou, signing] = previews.map(({ html }) => html);
    expect(aboutYou).toContain('<h1 class="page-title">Sobre ti</h1>');
    expect(aboutYou).toContain('Nombres');
    expect(signing).toContain('<h1 class="page-title">Firma de contrato</h1>');
  });

  it('about-you: the app replaces the preview with the same markup (nothing moves), from the screen itself, not the spinner', async () => {
    const preview = await replaceAt('/8095551234/about-you');
    expect(visible(container!)).toBe(visible(preview));
    expect(visible(container!)).toContain('<h1 class="page-title">Sobre ti</h1>');
    expect(container!.querySelector('.loading-overlay')).toBeNull();
  });

  it('about-you: what the tab had typed comes back in the app, not in the preview', async () => {
    const preview = await replaceAt('/8095551234/about-you', () =>
      sessionStorage.setItem('values', JSON.stringify({ name: 'Ana' })),
    );
    expect(preview.innerHTML).not.toContain('Ana');
    expect(screen.getByLabelText<HTMLInputElement>('Nombres').value).toBe('Ana');
  });

  it('the signing link: the same screen while the link loads (the spinner above it)', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise(() => {}));
    const preview = await replaceAt('/send-contract-sign?token=t&user_type_id=1&user_id=2');
    expect(visible(container!.querySelector('main')!)).toBe(visible(preview.querySelector('main')!));
    expect(visible(container!.querySelector('main')!)).toContain('Firma de contrato');
  });
});

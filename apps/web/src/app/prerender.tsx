import type { PublicConfig } from '@provee/domain';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { setCopyCountry } from '../shared/lib/copy.js';
import { AppProviders } from './providers.js';
import { AppRoutes, PREVIEWED_SCREENS, previewedScreen } from './router.js';

/**
 * The pages the server renders once at start-up (built by `vite build --ssr` into
 * dist/server/prerender.js; apps/api's spa.ts puts each inside #root of index.html). The browser
 * paints them before any JS arrives. What only the browser knows (sessionStorage) is not in them.
 */
function render(config: PublicConfig, location: string): string {
  setCopyCountry(config.country.code);
  return renderToString(
    <AppProviders config={config}>
      <StaticRouter location={location}>
        <AppRoutes />
      </StaticRouter>
    </AppProviders>,
  );
}

/**
 * The landing, which main.tsx hydrates: useHydrated keeps browser-only state out of the first
 * render. See docs/decisions/016-prerendered-landing.md.
 */
export function renderLanding(config: PublicConfig): string {
  return render(config, '/home');
}

/**
 * Where the server sends a previewed screen, and the location it is rendered at: a phone or a link's
 * parameters the screen does not show stand in for the real ones.
 */
const PREVIEW_LOCATIONS: Record<(typeof PREVIEWED_SCREENS)[number]['path'], string> = {
  '/:phoneNumber/about-you': '/0/about-you',
  // The SMS link's parameters: the screen as it opens, loading the signing link.
  '/send-contract-sign': '/send-contract-sign?token=preview&user_type_id=0&user_id=0',
};

/**
 * The previewed screens (docs/decisions/019): their first render, as a browser shows it before the
 * API answers, with no stored form values. main.tsx replaces a preview with the app's own render
 * (it does not hydrate it): the two must look the same, not match node for node.
 */
export async function renderPreviews(config: PublicConfig): Promise<{ path: string; html: string }[]> {
  return Promise.all(
    PREVIEWED_SCREENS.map(async ({ path }) => {
      const location = PREVIEW_LOCATIONS[path];
      await previewedScreen(location.split('?')[0]!)!.preload();
      return { path, html: render(config, location) };
    }),
  );
}

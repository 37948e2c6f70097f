import type { PublicConfig } from '@provee/domain';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { setCopyCountry } from '../shared/lib/copy.js';
import { AppProviders } from './providers.js';
import { AppRoutes } from './router.js';

/**
 * The landing's HTML for this configuration, rendered by the server once at start-up (built by
 * `vite build --ssr` into dist/server/prerender.js; apps/api's spa.ts puts it inside #root of
 * index.html for `/` and `/home`). The browser paints it before any JS arrives, then main.tsx
 * hydrates it. What only the browser knows (sessionStorage) waits for hydration: useHydrated.
 * See docs/decisions/016-prerendered-landing.md.
 */
export function renderLanding(config: PublicConfig): string {
  setCopyCountry(config.country.code);
  return renderToString(
    <AppProviders config={config}>
      <StaticRouter location="/home">
        <AppRoutes />
      </StaticRouter>
    </AppProviders>,
  );
}

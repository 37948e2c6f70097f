import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AppProviders } from './app/providers.js';
import { AppRouter, previewedScreen } from './app/router.js';
import { loadPublicConfig } from './shared/lib/config.js';
import { setCopyCountry, t } from './shared/lib/copy.js';

const root = document.getElementById('root')!;

/**
 * A previewed screen (docs/decisions/019): its module first, so the app replaces the preview with
 * the same screen in one frame (a failed load renders anyway: the screen then loads as usual).
 */
const screenReady = (): Promise<unknown> =>
  root.hasAttribute('data-preview')
    ? (previewedScreen(location.pathname)
        ?.preload()
        .catch(() => undefined) ?? Promise.resolve())
    : Promise.resolve();

Promise.all([loadPublicConfig(), screenReady()])
  .then(([config]) => {
    setCopyCountry(config.country.code);
    document.documentElement.lang = config.country.locale;
    const app = (
      <AppProviders config={config}>
        <AppRouter />
      </AppProviders>
    );
    // The first render as a transition: React works in slices and leaves the phone free to answer
    // a tap between them. The server prerenders the landing (app/prerender.tsx): adopt that markup;
    // a preview is replaced (React clears #root in the commit that shows the app); other pages come empty.
    startTransition(() => {
      if (root.firstElementChild && !root.hasAttribute('data-preview')) hydrateRoot(root, app);
      else {
        root.removeAttribute('data-preview');
        createRoot(root).render(app);
      }
    });
  })
  .catch(() => {
    root.textContent = t('app.loadError');
  });

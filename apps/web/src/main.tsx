import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AppProviders } from './app/providers.js';
import { AppRouter } from './app/router.js';
import { loadPublicConfig } from './shared/lib/config.js';
import { setCopyCountry, t } from './shared/lib/copy.js';

const root = document.getElementById('root')!;

loadPublicConfig()
  .then((config) => {
    setCopyCountry(config.country.code);
    document.documentElement.lang = config.country.locale;
    const app = (
      <AppProviders config={config}>
        <AppRouter />
      </AppProviders>
    );
    // The first render as a transition: React works in slices and leaves the phone free to answer
    // a tap between them. The server prerenders the landing (app/prerender.tsx): adopt that markup;
    // any other page comes empty.
    startTransition(() => {
      if (root.firstElementChild) hydrateRoot(root, app);
      else createRoot(root).render(app);
    });
  })
  .catch(() => {
    root.textContent = t('app.loadError');
  });

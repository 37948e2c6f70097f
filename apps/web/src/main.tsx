import '@fontsource/poppins/latin-400.css';
import '@fontsource/poppins/latin-600.css';
import './app/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRouter } from './app/router.js';
import { ConfigContext, loadPublicConfig } from './shared/lib/config.js';
import { setCopyCountry, t } from './shared/lib/copy.js';

const root = document.getElementById('root')!;

loadPublicConfig()
  .then((config) => {
    setCopyCountry(config.country.code);
    document.documentElement.lang = config.country.locale;
    createRoot(root).render(
      <StrictMode>
        <ConfigContext value={config}>
          <AppRouter />
        </ConfigContext>
      </StrictMode>,
    );
  })
  .catch(() => {
    root.textContent = t('app.loadError');
  });

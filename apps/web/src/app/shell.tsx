import { Suspense, useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { useConfig } from '../shared/lib/config.js';
import { fullPageRedirect } from '../shared/lib/navigation.js';
import { t } from '../shared/lib/copy.js';
import { uiState, useUiState } from '../shared/lib/ui-state.js';
import { ErrorModal } from '../shared/ui/error-modal.js';
import { HelpButton } from '../shared/ui/help-button.js';
import { LoadingOverlay } from '../shared/ui/spinner.js';
import { MyDataLink } from './my-data-link.js';

/** What every screen has: the content, help chat, spinner, error modal, redirects and the test-mode banner. */
export function AppShell() {
  const config = useConfig();
  const ui = useUiState();
  const navigate = useNavigate();
  const closeError = () => {
    const goTo = ui.error?.goTo;
    uiState.clearError();
    if (goTo) navigate(goTo, { replace: true });
  };

  useEffect(() => {
    if (ui.redirectUrl) fullPageRedirect(ui.redirectUrl);
  }, [ui.redirectUrl]);

  return (
    <>
      {(config.testMode || config.developmentSeal) && (
        // In the page flow above the screen, so it never covers content.
        <aside className="test-mode-banner" aria-label={t('testMode.label')}>
          <strong>{t('testMode.label')}</strong>:{' '}
          {config.testMode && config.developmentSeal
            ? t('testMode.both')
            : t(config.testMode ? 'testMode.text' : 'testMode.seal')}
        </aside>
      )}
      <main className="shell">
        {/* A screen still downloading shows the spinner inside the shell, not a blank page. */}
        <Suspense fallback={<LoadingOverlay visible />}>
          <Outlet />
        </Suspense>
        <MyDataLink />
      </main>
      <aside className="help-band" aria-label="Ayuda">
        <HelpButton supportNumber={config.supportChatNumber} />
      </aside>
      <LoadingOverlay visible={ui.pending > 0 || ui.redirectUrl !== null} />
      <ErrorModal error={ui.error} onClose={closeError} />
    </>
  );
}

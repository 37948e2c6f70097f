import { ADVISOR_CALL_WITHIN_MINUTES, BUILTIN_ADVISOR_VIDEO } from '@provee/domain';
import { useStepGuard } from '../../../shared/hooks/use-step-guard.js';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { formatE164 } from '../../../shared/lib/format.js';
import { Page } from '../../../shared/ui/page.js';
import { Stepper } from '../../../shared/ui/stepper.js';

/**
 * Advisor welcome (SPEC §2.3 item 12): the video (the built-in one unless the lender set its own or
 * none), the call promise (the number formatted and never broken across lines), the app.
 */
export function AdvisorWelcomeRoute() {
  return useStepGuard('advisor') ? <AdvisorWelcomeScreen /> : null;
}

function AdvisorWelcomeScreen() {
  const { advisorVideoUrl, advisorPhone, appStoreUrl, country } = useConfig();
  return (
    <Page title={t('advisor.title')} heading={t('advisor.title')}>
      <Stepper phase="evaluation" filled={1} />
      {advisorVideoUrl && <WelcomeVideo url={advisorVideoUrl} />}
      <p className="page-subtitle">
        {t('welcome.call', { minutes: ADVISOR_CALL_WITHIN_MINUTES, phone: formatE164(country, advisorPhone) })}
      </p>
      <a className="btn btn-primary" href={appStoreUrl} target="_blank" rel="noopener noreferrer">
        {t('download.cta')}
      </a>
    </Page>
  );
}

/**
 * Nothing is fetched before the person taps play (3G): the built-in video's poster holds its 16:9
 * place meanwhile; a lender's video gets the same 16:9 box, black until played.
 */
function WelcomeVideo({ url }: { url: string }) {
  const builtIn = url === BUILTIN_ADVISOR_VIDEO.url;
  return (
    <video
      className="welcome-video"
      src={url}
      poster={builtIn ? BUILTIN_ADVISOR_VIDEO.poster : undefined}
      width={BUILTIN_ADVISOR_VIDEO.width}
      height={BUILTIN_ADVISOR_VIDEO.height}
      controls
      preload="none"
      playsInline
      aria-label={t('welcome.video')}
    />
  );
}

import { WAITING_INTERVAL_MS, WAITING_MAX_TRIES, routeAfterLookup } from '@provee/domain';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useStepGuard } from '../../../shared/hooks/use-step-guard.js';
import { t } from '../../../shared/lib/copy.js';
import { getUser } from '../../../shared/lib/users-api.js';
import { Page } from '../../../shared/ui/page.js';
import { isApproval } from '../api/credit.js';

/** While the bureau answers: up to 12 checks 5 s apart, then /something-happened (SPEC §4). */
export function WaitingRoute() {
  return useStepGuard('waiting') ? <WaitingScreen /> : null;
}

function WaitingScreen() {
  const { userId = '' } = useParams();
  const navigate = useNavigate();

  useEffect(() => {
    let tries = 0;
    let timer: ReturnType<typeof setTimeout>;
    let stopped = false;
    const check = async () => {
      tries += 1;
      try {
        const { data } = await getUser(userId, { spinner: false });
        if (stopped) return;
        if (data.status !== 'WAITING') {
          const phone = data.phone_number ?? '';
          navigate(
            isApproval(data)
              ? `/${phone}/${userId}/congratulations`
              : routeAfterLookup({ kind: 'user', phone, user: data }),
            { replace: true },
          );
          return;
        }
      } catch {
        // A dropped connection counts as a try; the next one may get through.
      }
      if (stopped) return;
      if (tries >= WAITING_MAX_TRIES) navigate('/something-happened', { replace: true });
      else timer = setTimeout(check, WAITING_INTERVAL_MS);
    };
    timer = setTimeout(check, WAITING_INTERVAL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [navigate, userId]);

  return (
    <Page title={t('waiting.text')}>
      <div className="waiting-screen" role="status">
        <span className="spinner" aria-hidden="true" />
        <p className="page-subtitle">{t('waiting.text')}</p>
      </div>
    </Page>
  );
}

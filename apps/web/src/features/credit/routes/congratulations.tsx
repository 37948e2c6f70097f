import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { usePrefetch, type NextProps } from '../../../shared/hooks/use-prefetch.js';
import { useStepGuard } from '../../../shared/hooks/use-step-guard.js';
import { applicationState } from '../../../shared/lib/application-state.js';
import { useConfig } from '../../../shared/lib/config.js';
import { routeAfterLookup } from '@provee/domain';
import { t } from '../../../shared/lib/copy.js';
import { formatAmount } from '../../../shared/lib/format.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { getUser } from '../../../shared/lib/users-api.js';
import { Button } from '../../../shared/ui/button.js';
import { Page } from '../../../shared/ui/page.js';

/** 'Felicidades' with the pre-approved amount (SPEC §2.3 item 7). */
export function CongratulationsRoute({ next }: NextProps) {
  usePrefetch(next);
  return useStepGuard('congratulations') ? <CongratulationsScreen /> : null;
}

function CongratulationsScreen() {
  const { phoneNumber = '', userId = '' } = useParams();
  const navigate = useNavigate();
  const { country } = useConfig();
  const [amount, setAmount] = useState<string>();

  useEffect(() => {
    let current = true;
    // The PIN's answer carried the amount; a reload, a link or the waiting screen's fetch asks the server.
    const known = applicationState.get(userId);
    (known?.pre_approval ? Promise.resolve(known) : getUser(userId).then(({ data }) => data))
      .then((state) => {
        if (!current) return;
        if (state.pre_approval && state.next_step === 'PASSWORD')
          setAmount(formatAmount(state.pre_approval.amount, state.pre_approval.currency, country.locale));
        else navigate(routeAfterLookup({ kind: 'user', phone: phoneNumber, user: state }), { replace: true });
      })
      .catch(uiState.showError);
    return () => {
      current = false;
    };
  }, [country.locale, navigate, phoneNumber, userId]);

  return (
    <Page title={t('congratulations.title')} heading={t('congratulations.title')}>
      {amount && (
        <>
          <p className="page-subtitle">{t('congratulations.text')}</p>
          <p className="amount">{amount}</p>
          <p className="page-subtitle">{t('congratulations.next')}</p>
          <Button onClick={() => navigate(`/${phoneNumber}/${userId}/create-password`)}>
            {t('congratulations.cta')}
          </Button>
        </>
      )}
    </Page>
  );
}

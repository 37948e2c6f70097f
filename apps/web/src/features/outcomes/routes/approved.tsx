import { useParams } from 'react-router';
import { useStepGuard } from '../../../shared/hooks/use-step-guard.js';
import { applicationState } from '../../../shared/lib/application-state.js';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { formatAmount, formatPercent, formatPhone } from '../../../shared/lib/format.js';
import { SupportChatLink } from '../../../shared/ui/chat-link.js';
import { Page } from '../../../shared/ui/page.js';
import { useLenderApproval } from '../lib/use-lender-approval.js';

/**
 * The lender approved the credit (issue 30): the final amount and terms, and the SMS with the
 * contract's signing link the server sent with the approval (and who helps when it does not come).
 */
export function ApprovedRoute() {
  return useStepGuard('approved') ? <ApprovedScreen /> : null;
}

function ApprovedScreen() {
  const { phoneNumber = '', userId = '' } = useParams();
  const { country } = useConfig();
  const approval = useLenderApproval(userId);
  const phone = phoneNumber || applicationState.get(userId)?.phone || '';
  return (
    <Page title={t('approved.title')} heading={t('approved.title')}>
      {approval !== undefined && (
        <>
          {approval && (
            <>
              <p className="page-subtitle">{t('approved.text')}</p>
              <p className="amount">{formatAmount(approval.amount, approval.currency, country.locale)}</p>
              <dl className="terms" aria-label={t('approved.terms')}>
                <div>
                  <dt>{t('approved.term')}</dt>
                  <dd>
                    {approval.term_months === 1
                      ? t('approved.month')
                      : t('approved.months', { months: approval.term_months })}
                  </dd>
                </div>
                <div>
                  <dt>{t('approved.rate')}</dt>
                  <dd>{formatPercent(approval.annual_rate, country.locale)}</dd>
                </div>
              </dl>
            </>
          )}
          <p className="notice notice-ok">{t('approved.sms', { phone: formatPhone(country, phone) })}</p>
          <p className="page-subtitle">{t('approved.noSms')}</p>
          <SupportChatLink message={t('approved.chatText')} label={t('approved.chat')} />
        </>
      )}
    </Page>
  );
}

import type { PrivacyRequestView } from '@provee/domain';
import { t } from '../../../shared/lib/copy.js';
import { formatDay } from '../../../shared/lib/format.js';

/** The person's requests: folio, what was asked, the legal deadline and where it stands. */
export function RequestList({ items, locale }: { items: PrivacyRequestView[]; locale: string }) {
  if (items.length === 0) return <p className="page-subtitle">{t('myData.noRequests')}</p>;
  return (
    <ul className="my-requests" aria-label={t('myData.requestsTitle')}>
      {items.map((item) => (
        <li key={item.id} className="my-request">
          <strong>{t(`myData.kind.${item.kind}`)}</strong>
          <dl className="terms">
            <div>
              <dt>{t('myData.folio')}</dt>
              <dd>{item.folio}</dd>
            </div>
            <div>
              <dt>{t('myData.deadline')}</dt>
              <dd>{formatDay(item.deadline, locale)}</dd>
            </div>
            <div>
              <dt>{t('myData.state')}</dt>
              <dd>{t(`myData.state.${item.state}`)}</dd>
            </div>
          </dl>
          {item.refusal_reason && (
            <p className="page-subtitle">{t('myData.refusedBecause', { reason: item.refusal_reason })}</p>
          )}
        </li>
      ))}
    </ul>
  );
}

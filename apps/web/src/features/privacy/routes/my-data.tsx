import type { PersonalDataExport, PrivacyRequestView } from '@provee/domain';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { useConfig } from '../../../shared/lib/config.js';
import { t } from '../../../shared/lib/copy.js';
import { uiState } from '../../../shared/lib/ui-state.js';
import { Button } from '../../../shared/ui/button.js';
import { Page } from '../../../shared/ui/page.js';
import { privacyApi } from '../api/privacy.js';
import { HeldData } from '../components/held-data.js';
import { RequestForm } from '../components/request-form.js';
import { RequestList } from '../components/request-list.js';
import { formatDay } from '../../../shared/lib/format.js';
import { saveFile } from '../lib/save-file.js';
import '../my-data.css';

/**
 * "Mis datos" (issue 31), for a shopkeeper who proved their phone: what we keep about them, the two
 * downloads, a request over it (rectification, cancellation, opposition) and the requests' folios,
 * deadlines and states. The API checks the session's token owns this user.
 */
export function MyDataRoute() {
  const { userId = '' } = useParams();
  const { country } = useConfig();
  const [data, setData] = useState<PersonalDataExport>();
  const [requests, setRequests] = useState<PrivacyRequestView[]>();
  const [sent, setSent] = useState<PrivacyRequestView>();

  useEffect(() => {
    let live = true;
    Promise.all([privacyApi.data(userId), privacyApi.requests(userId)]).then(
      ([held, filed]) => {
        if (!live) return;
        setData(held);
        setRequests(filed);
      },
      (error: unknown) => live && uiState.showError(error, { goTo: '/home' }),
    );
    return () => {
      live = false;
    };
  }, [userId]);

  const downloadJson = () =>
    data && saveFile(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }), 'mis-datos.json');
  const downloadPdf = () =>
    privacyApi.pdf(userId).then(
      (pdf) => saveFile(pdf, 'mis-datos.pdf'),
      (error: unknown) => uiState.showError(error),
    );
  const onSent = (request: PrivacyRequestView) => {
    setSent(request);
    setRequests((items) => [request, ...(items ?? [])]);
  };

  return (
    <Page title={t('myData.title')} heading={t('myData.title')}>
      <p className="page-subtitle">{t('myData.intro')}</p>
      {data && (
        <>
          <div className="my-data-downloads">
            <Button variant="secondary" onClick={downloadJson}>
              {t('myData.downloadJson')}
            </Button>
            <Button variant="secondary" onClick={() => void downloadPdf()}>
              {t('myData.downloadPdf')}
            </Button>
          </div>
          <HeldData data={data} place={country} />
          <h2 className="my-data-heading">{t('myData.requestTitle')}</h2>
          {sent && (
            <p className="notice notice-ok" role="status">
              {t('myData.sent', { folio: sent.folio, deadline: formatDay(sent.deadline, country.locale) })}
            </p>
          )}
          <RequestForm send={(body) => privacyApi.file(userId, body)} onSent={onSent} />
          <h2 className="my-data-heading">{t('myData.requestsTitle')}</h2>
          {requests && <RequestList items={requests} locale={country.locale} />}
        </>
      )}
    </Page>
  );
}

import { useEffect, useState } from 'react';
import { DisabledEndpointsAlert } from '../components/integrations/endpoint-state.js';
import { PartnerKeysCard } from '../components/integrations/partner-keys-card.js';
import { SecretDialog, type ShownSecret } from '../components/integrations/secret-dialog.js';
import { WebhooksCard } from '../components/integrations/webhooks-card.js';
import { ErrorMessage, Loading, useTitle } from '../components/messages.js';
import { partnerKeys, webhooks } from '../integrations-api.js';
import { useReportEndpoints } from '../lib/endpoints-alert.js';
import { useResource } from '../lib/use-resource.js';
import '../components/lender-systems.css';

/**
 * /backoffice/integrations (admins): the lender's own systems. Webhook endpoints (with the secret
 * they are signed with, shown once) and the partner API's keys (shown once). Every change asks for
 * a recent second factor (403 STEP_UP_REQUIRED; the layout asks for it).
 */
export function IntegrationsRoute() {
  useTitle('Integraciones');
  const endpoints = useResource('endpoints', webhooks.list);
  const keys = useResource('partner-keys', partnerKeys.list);
  const [flash, setFlash] = useState('');
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const report = useReportEndpoints();
  useEffect(() => {
    if (endpoints.data) report?.(endpoints.data.endpoints);
  }, [endpoints.data, report]);

  const runOn = (reload: () => void) => async (call: () => Promise<unknown>, success: string) => {
    setFlash('');
    await call();
    setFlash(success);
    reload();
  };
  const runOnEndpoints = runOn(endpoints.reload);
  const runOnKeys = runOn(keys.reload);

  return (
    <section aria-labelledby="bo-integrations">
      <h1 id="bo-integrations">Integraciones</h1>
      <p className="bo-muted">
        Los sistemas del prestamista: qué avisos reciben de cada solicitud y con qué llaves consultan la API.
      </p>
      {endpoints.data && <DisabledEndpointsAlert endpoints={endpoints.data.endpoints} />}
      <div className="bo-flash" role="status">
        {flash && <p>{flash}</p>}
      </div>
      {shown && <SecretDialog shown={shown} onClose={() => setShown(null)} />}
      <ErrorMessage error={endpoints.error} />
      {!endpoints.data && endpoints.loading && <Loading />}
      {endpoints.data && (
        <WebhooksCard
          view={endpoints.data}
          run={runOnEndpoints}
          onCreate={(body) =>
            runOnEndpoints(async () => {
              const created = await webhooks.create(body);
              setShown({
                title: 'Secreto de firma del destino',
                intro: `Cada envío a ${created.endpoint.url} va firmado con este secreto: entrégalo al equipo de sistemas del prestamista por un canal seguro.`,
                label: 'Secreto de firma',
                secret: created.secret,
              });
            }, `Destino ${body.url.trim()} agregado`)
          }
        />
      )}
      <ErrorMessage error={keys.error} />
      {!keys.data && keys.loading && <Loading />}
      {keys.data && (
        <PartnerKeysCard
          keys={keys.data}
          run={runOnKeys}
          onCreate={(body) =>
            runOnKeys(async () => {
              const created = await partnerKeys.create(body);
              setShown({
                title: `Llave «${created.key.name}»`,
                intro:
                  'Entrégala al equipo de sistemas del prestamista por un canal seguro: la usan en cada llamada a la API.',
                label: 'Llave de la API',
                secret: created.token,
              });
            }, `Llave «${body.name.trim()}» creada`)
          }
        />
      )}
    </section>
  );
}

import { retentionScheduleRoute, type RetentionScheduleView } from '@provee/domain';
import { backofficeRequest } from '../api.js';
import { DataTable } from '../components/data-table.js';
import { ErrorMessage, Loading, useTitle } from '../components/messages.js';
import { formatDateTime, formatInteger } from '../lib/format.js';
import { countryName, label } from '../lib/labels.js';
import { useResource } from '../lib/use-resource.js';

type Rule = RetentionScheduleView['rules'][number];
type Run = RetentionScheduleView['runs'][number];

const appliesToName = label({
  'abandoned-before-consent': 'Solicitudes abandonadas antes del consentimiento al buró',
  'inactive-after-consent': 'Solicitudes con consentimiento al buró, sin rechazo ni firma, inactivas',
  'rejected-application': 'Solicitudes rechazadas',
  'decided-identity-documents': 'Fotos de identidad de verificaciones ya decididas',
  // The erasure empties the contract; consent records stay until their own rule (docs/PRIVACY.md).
  'signed-contract': 'Solicitudes con contrato firmado (los consentimientos se conservan hasta su propio plazo)',
  'consent-records': 'Constancias de consentimiento de solicitudes ya borradas',
  'sms-outbox': 'Bandeja del simulador de SMS',
  'phone-proof': 'Códigos, inicios y sesiones de verificación del celular',
});

const countedFromName = label({
  'last-activity': 'la última actividad',
  rejection: 'el rechazo',
  'verification-decision': 'la decisión de la verificación',
  'last-signature': 'la última firma',
  'consent-given': 'el consentimiento',
  'message-sent': 'el envío',
  'proof-started': 'su creación',
});

const actionName = label({
  'erase-application': 'Borrar la solicitud',
  'delete-files': 'Borrar los archivos',
  'delete-rows': 'Borrar los registros',
  'clear-consent-records': 'Borrar los datos personales de la constancia',
});

/** An age in days as people say it: hours under two days, years past two. */
function age(days: number): string {
  if (days < 2) return `${days * 24} horas`;
  if (days >= 730) return `${Math.floor(days / 365.25)} años`;
  return `${days} días`;
}

function RuleRow({ rule }: { rule: Rule }) {
  return (
    <tr>
      <th scope="row">
        <code>{rule.name}</code>
        {rule.country && <div className="bo-muted">{countryName(rule.country)}</div>}
      </th>
      <td>{appliesToName(rule.applies_to)}</td>
      <td>
        {age(rule.age_days)} desde {countedFromName(rule.counted_from)}
      </td>
      <td>{actionName(rule.action)}</td>
      <td>{rule.enabled ? 'Activa' : 'Desactivada'}</td>
      <td>{rule.legal_basis}</td>
    </tr>
  );
}

function RunRow({ run }: { run: Run }) {
  const counts = Object.entries(run.counts);
  return (
    <tr>
      <td className="bo-nowrap">{formatDateTime(run.started_at)}</td>
      <td className="bo-nowrap">{formatDateTime(run.finished_at)}</td>
      <td>
        {counts.length === 0
          ? 'Ninguna regla activa'
          : counts.map(([name, count]) => (
              <div key={name}>
                <code>{name}</code>: {formatInteger(count.done)}
                {count.refused > 0 && `, ${formatInteger(count.refused)} retenidas`}
                {count.failed > 0 && `, ${formatInteger(count.failed)} con error`}
              </div>
            ))}
      </td>
    </tr>
  );
}

/** /backoffice/retention (admins): the retention schedule's rules and its latest runs, read only. */
export function RetentionRoute() {
  useTitle('Conservación de datos');
  // The call is this screen's own (not in api.ts): only admins ever download it.
  const schedule = useResource('retention', () => backofficeRequest(retentionScheduleRoute, {}).then((r) => r.data));
  const { rules = [], runs = [] } = schedule.data ?? {};

  return (
    <section aria-labelledby="bo-retention">
      <h1 id="bo-retention">Conservación de datos</h1>
      <p className="bo-muted">
        Las reglas se aplican cada día a las 03:15 (UTC), en este orden. Se cambian en la base de datos (tabla
        retention_rules); ver docs/PRIVACY.md.
      </p>
      <ErrorMessage error={schedule.error} />
      {!schedule.data && schedule.loading && <Loading />}
      {rules.length > 0 && (
        <DataTable
          caption="Reglas de conservación"
          showCaption
          columns={['Regla', 'Se aplica a', 'Plazo', 'Acción', 'Estado', 'Base legal']}
        >
          {rules.map((rule) => (
            <RuleRow key={`${rule.name}:${rule.country ?? ''}`} rule={rule} />
          ))}
        </DataTable>
      )}
      {schedule.data && runs.length === 0 && <p className="bo-muted">Todavía no se ha aplicado el calendario.</p>}
      {runs.length > 0 && (
        <DataTable caption="Últimas ejecuciones" showCaption columns={['Inicio', 'Fin', 'Borrados por regla']}>
          {runs.map((run) => (
            <RunRow key={run.id} run={run} />
          ))}
        </DataTable>
      )}
    </section>
  );
}

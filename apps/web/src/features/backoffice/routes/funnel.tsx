import type { ReportQuery } from '@provee/domain';
import { useState, type FormEvent } from 'react';
import { reports } from '../api.js';
import { DataTable } from '../components/data-table.js';
import { FunnelChart } from '../components/funnel-chart.js';
import { ErrorMessage, Loading, useTitle } from '../components/messages.js';
import { formatDuration, formatInteger, formatPercent, localDate } from '../lib/format.js';
import { useResource } from '../lib/use-resource.js';

const REMINDER_NAMES = ['Primer recordatorio', 'Segundo recordatorio', 'Tercer recordatorio'];

/**
 * /backoffice/funnel: how many reached each step, and how long the step before took them; and how
 * many applicants each reminder brought back (issue 34).
 */
export function FunnelRoute() {
  useTitle('Embudo');
  const [draft, setDraft] = useState({ from: localDate(30), to: localDate(0), utm_source: '' });
  const [query, setQuery] = useState<ReportQuery>(() => ({ from: draft.from, to: draft.to }));
  const funnel = useResource(JSON.stringify(query), () => reports.funnel(query));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQuery({
      from: draft.from,
      to: draft.to,
      ...(draft.utm_source.trim() ? { utm_source: draft.utm_source.trim() } : {}),
    });
  };
  const steps = funnel.data?.steps ?? [];
  const reminders = funnel.data?.reminders ?? [];

  return (
    <section aria-labelledby="bo-funnel">
      <h1 id="bo-funnel">Embudo de conversión</h1>
      <form className="bo-filters" onSubmit={submit} aria-label="Periodo del embudo">
        <label>
          Desde
          <input
            type="date"
            required
            value={draft.from}
            onChange={(e) => setDraft({ ...draft, from: e.target.value })}
          />
        </label>
        <label>
          Hasta
          <input type="date" required value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </label>
        <label>
          Fuente (utm_source)
          <input
            value={draft.utm_source}
            maxLength={100}
            onChange={(e) => setDraft({ ...draft, utm_source: e.target.value })}
          />
        </label>
        <div className="bo-actions">
          <button type="submit" className="bo-button">
            Actualizar
          </button>
        </div>
      </form>
      <ErrorMessage error={funnel.error} />
      {!funnel.data && funnel.loading && <Loading />}
      {funnel.data && steps.length === 0 && <p>Sin datos en este periodo.</p>}
      {steps.length > 0 && (
        <div className="bo-funnel">
          <FunnelChart steps={steps} />
          <DataTable
            caption="Embudo por paso"
            columns={['Paso', 'Llegaron', 'Conversión', 'Tiempo mediano desde el paso anterior']}
          >
            {steps.map((step) => (
              <tr key={step.key}>
                <th scope="row">{step.label}</th>
                <td className="bo-number">{formatInteger(step.reached)}</td>
                <td className="bo-number">{formatPercent(step.conversion)}</td>
                <td className="bo-number">{formatDuration(step.median_seconds_from_previous)}</td>
              </tr>
            ))}
          </DataTable>
        </div>
      )}
      {reminders.length > 0 && (
        <DataTable
          caption="Recordatorios enviados en el periodo"
          columns={['Recordatorio', 'Enviados', 'Regresaron', 'Tasa de regreso']}
        >
          {reminders.map((reminder) => (
            <tr key={reminder.number}>
              <th scope="row">{REMINDER_NAMES[reminder.number - 1] ?? `Recordatorio ${reminder.number}`}</th>
              <td className="bo-number">{formatInteger(reminder.sent)}</td>
              <td className="bo-number">{formatInteger(reminder.came_back)}</td>
              <td className="bo-number">
                {formatPercent(reminder.sent > 0 ? reminder.came_back / reminder.sent : null)}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}

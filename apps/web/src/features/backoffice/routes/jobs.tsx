import { JOB_VIEW_STATES, jobQueueRoute, type JobQueueQuery, type JobViewState } from '@provee/domain';
import { useState } from 'react';
import { backofficeRequest } from '../api.js';
import { DataTable } from '../components/data-table.js';
import { ErrorMessage, Loading, useTitle } from '../components/messages.js';
import { SelectField } from '../components/select-field.js';
import { formatDateTime, formatInteger } from '../lib/format.js';
import { useResource } from '../lib/use-resource.js';

const STATE_NAMES: Record<JobViewState, string> = {
  waiting: 'En espera',
  running: 'En curso',
  done: 'Terminados',
  failed: 'Fallidos',
};

/** /backoffice/jobs (admins): the background jobs by kind and state, and the latest ones with their last error. */
export function JobsRoute() {
  useTitle('Trabajos');
  const [query, setQuery] = useState<JobQueueQuery>({ state: 'failed' });
  // The call is this screen's own (not in api.ts): only admins ever download it.
  const queue = useResource(JSON.stringify(query), () =>
    backofficeRequest(jobQueueRoute, { query }).then((r) => r.data),
  );
  const { kinds = [], jobs = [] } = queue.data ?? {};
  const state = (query.state ?? '') as JobViewState | '';

  return (
    <section aria-labelledby="bo-jobs">
      <h1 id="bo-jobs">Trabajos en segundo plano</h1>
      <ErrorMessage error={queue.error} />
      {!queue.data && queue.loading && <Loading />}
      {queue.data && kinds.length === 0 && <p className="bo-muted">Todavía no hay trabajos en la cola.</p>}
      {kinds.length > 0 && (
        <DataTable caption="Trabajos por tipo" columns={['Tipo', ...JOB_VIEW_STATES.map((s) => STATE_NAMES[s])]}>
          {kinds.map((kind) => (
            <tr key={kind.name}>
              <th scope="row">
                <code>{kind.name}</code>
              </th>
              {JOB_VIEW_STATES.map((s) => (
                <td key={s} className="bo-number">
                  {formatInteger(kind[s])}
                </td>
              ))}
            </tr>
          ))}
        </DataTable>
      )}
      <form className="bo-filters" aria-label="Filtrar trabajos" onSubmit={(e) => e.preventDefault()}>
        <SelectField
          label="Estado"
          any="Todos"
          options={JOB_VIEW_STATES.map((s) => [s, STATE_NAMES[s]])}
          value={state}
          onChange={(e) => setQuery(e.target.value ? { state: e.target.value as JobViewState } : {})}
        />
      </form>
      {queue.data && kinds.length > 0 && jobs.length === 0 && (
        <p className="bo-muted">{state ? 'Ningún trabajo en este estado.' : 'Ningún trabajo.'}</p>
      )}
      {jobs.length > 0 && (
        <DataTable
          caption="Últimos trabajos"
          columns={['Tipo', 'Estado', 'Intentos', 'Creado', 'Siguiente intento', 'Terminado', 'Último error', 'Datos']}
        >
          {jobs.map((job) => (
            <tr key={job.id}>
              <th scope="row">
                <code>{job.name}</code>
              </th>
              <td>{STATE_NAMES[job.state]}</td>
              <td className="bo-number">
                {job.retries + 1} de {job.retry_limit + 1}
              </td>
              <td className="bo-nowrap">{formatDateTime(job.created_at)}</td>
              <td className="bo-nowrap">{formatDateTime(job.next_run_at)}</td>
              <td className="bo-nowrap">{formatDateTime(job.finished_at)}</td>
              <td>{job.last_error ?? '—'}</td>
              <td>
                <code>{job.data ? JSON.stringify(job.data) : '—'}</code>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}

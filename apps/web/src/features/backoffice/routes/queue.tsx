import type { AdvisorTaskView } from '@provee/domain';
import { useState } from 'react';
import { Link } from 'react-router';
import { advisorQueue } from '../api.js';
import { ActionButton } from '../components/actions.js';
import { DataTable } from '../components/data-table.js';
import { ErrorMessage, Loading, useTitle } from '../components/messages.js';
import { formatDateTime } from '../lib/format.js';
import { taskKindName } from '../lib/labels.js';
import { useStaff } from '../lib/staff-context.js';
import { useResource } from '../lib/use-resource.js';

const oldestFirst = (tasks: AdvisorTaskView[]) =>
  [...tasks].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));

/** /backoffice/queue: shopkeepers who asked for an advisor and new leads (one per person), oldest first. */
export function QueueRoute() {
  useTitle('Cola de asesores');
  const me = useStaff();
  const [includeDone, setIncludeDone] = useState(false);
  const queue = useResource(String(includeDone), () => advisorQueue.list(includeDone));
  const [flash, setFlash] = useState('');
  const run = async (call: () => Promise<unknown>, success: string) => {
    setFlash('');
    await call();
    setFlash(success);
    queue.reload();
  };

  return (
    <section aria-labelledby="bo-queue">
      <h1 id="bo-queue">Cola de asesores</h1>
      <div className="bo-toolbar">
        <label className="bo-check">
          <input type="checkbox" checked={includeDone} onChange={(e) => setIncludeDone(e.target.checked)} />
          Mostrar también las atendidas
        </label>
        <button type="button" className="bo-button bo-button--quiet" onClick={queue.reload}>
          Actualizar
        </button>
      </div>
      <div className="bo-flash" role="status">
        {flash && <p>{flash}</p>}
      </div>
      <ErrorMessage error={queue.error} />
      {!queue.data && queue.loading && <Loading />}
      {queue.data &&
        (queue.data.length === 0 ? (
          <p>No hay tareas pendientes.</p>
        ) : (
          <DataTable
            caption="Tareas, la más antigua primero"
            columns={['Recibida', 'Persona', 'Motivo', 'Atiende', 'Contacto', 'Acciones']}
          >
            {oldestFirst(queue.data).map((task) => {
              const who = task.name ?? task.phone;
              const mine = task.claimed_by?.id === me.id;
              return (
                <tr key={`${task.source}:${task.source_id}`} className={task.done_at ? 'bo-row--done' : undefined}>
                  <td className="bo-nowrap">{formatDateTime(task.created_at)}</td>
                  <th scope="row">
                    {task.name ?? 'Sin nombre'}
                    <br />
                    <span className="bo-muted bo-nowrap">{task.phone}</span>
                    {task.application_id && (
                      <>
                        <br />
                        <Link to={`/backoffice/applications/${task.application_id}`}>Ver solicitud</Link>
                      </>
                    )}
                  </th>
                  <td>
                    {taskKindName(task.kind)}
                    {task.source === 'lead' && <span className="bo-badge">Nuevo contacto</span>}
                    {task.visits > 1 && (
                      <>
                        <br />
                        <span className="bo-muted">
                          Entró {task.visits} veces, la última {formatDateTime(task.last_seen_at)}
                        </span>
                      </>
                    )}
                  </td>
                  <td>
                    {task.done_at
                      ? `Atendida ${formatDateTime(task.done_at)}`
                      : task.claimed_by
                        ? `${mine ? 'Tú' : task.claimed_by.name} · ${formatDateTime(task.claimed_at)}`
                        : 'Sin asignar'}
                  </td>
                  <td className="bo-nowrap">
                    <a href={task.call_url} aria-label={`Llamar a ${who}`}>
                      Llamar
                    </a>{' '}
                    <a
                      href={task.chat_url}
                      target="_blank"
                      rel="noopener noreferrer"
                      aria-label={`WhatsApp con ${who}`}
                    >
                      WhatsApp
                    </a>
                  </td>
                  <td>
                    {!task.done_at && !mine && (
                      <ActionButton
                        label="Tomar"
                        name={`Tomar la tarea de ${who}`}
                        run={() =>
                          run(() => advisorQueue.claim(task.source, task.source_id), `Tomaste la tarea de ${who}`)
                        }
                      />
                    )}
                    {!task.done_at && (
                      <ActionButton
                        label="Marcar atendida"
                        name={`Marcar atendida la tarea de ${who}`}
                        run={() =>
                          run(() => advisorQueue.done(task.source, task.source_id), `Tarea de ${who} atendida`)
                        }
                      />
                    )}
                  </td>
                </tr>
              );
            })}
          </DataTable>
        ))}
    </section>
  );
}

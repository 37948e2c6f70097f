import {
  MESSAGE_CHANNEL_LABELS,
  MESSAGE_KIND_LABELS,
  MESSAGE_STATUS_LABELS,
  type ApplicationDetail,
} from '@provee/domain';
import { formatDateTime } from '../../lib/format.js';
import { DataTable } from '../data-table.js';
import { DatedRow, Section } from './section.js';

/** Twilio's error codes an analyst meets most, in words (others show as the code). */
const ERROR_WORDS: Record<string, string> = {
  '63003': 'el número no tiene WhatsApp',
  '63016': 'fuera de la ventana de 24 h de WhatsApp',
  '63024': 'destinatario no válido',
  '30003': 'teléfono apagado o sin señal',
  '30005': 'número desconocido',
  '30006': 'línea fija o no alcanzable',
  refused: 'el proveedor lo rechazó',
};

/**
 * Every message sent about the application (issue 34): what it was, by which channel, and how its
 * delivery went; a fallback says which message it replaced. Never the text: codes stay secret.
 */
export function MessagesSection({ detail }: { detail: ApplicationDetail }) {
  return (
    <Section id="bo-messages" title="Mensajes enviados">
      {detail.messages.length === 0 ? (
        <p className="bo-muted">Sin mensajes.</p>
      ) : (
        <DataTable columns={['Fecha', 'Mensaje', 'Canal', 'Estado', 'Actualizado']}>
          {detail.messages.map((message) => (
            <DatedRow key={message.id} at={message.created_at}>
              <td>
                {MESSAGE_KIND_LABELS[message.kind]}
                {message.fallback_of && <span className="bo-muted"> (respaldo)</span>}
              </td>
              <td>{MESSAGE_CHANNEL_LABELS[message.channel]}</td>
              <td>
                {MESSAGE_STATUS_LABELS[message.status]}
                {message.error_code && (
                  <span className="bo-muted">
                    {' '}
                    · {ERROR_WORDS[message.error_code] ?? `código ${message.error_code}`}
                  </span>
                )}
              </td>
              <td className="bo-nowrap">{formatDateTime(message.status_at)}</td>
            </DatedRow>
          ))}
        </DataTable>
      )}
    </Section>
  );
}

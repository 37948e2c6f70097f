import type { ApplicationDetail } from '@provee/domain';
import { formatDateTime } from '../../lib/format.js';
import { personTypeName } from '../../lib/labels.js';
import { DataTable } from '../data-table.js';
import { DatedRow, Section, yesNo } from './section.js';

/**
 * Where the NIP audit a bureau is owed for its answer stands (Círculo's folioCDC once acknowledged).
 * Kept here, not in lib/labels.ts: that file is in the back office's first load (bundle budget).
 */
const AUDIT_STATUS_NAMES: Record<string, string> = {
  PENDING: 'Pendiente',
  RUNNING: 'Enviando',
  DONE: 'Acusada',
  REFUSED: 'Rechazada',
};

/**
 * Each consent with its evidence: when, from where, the PIN, and the exact text agreed to. Where
 * from (the IP) only for analysts and admins: the API sends it to no one else.
 */
export function ConsentsSection({ detail }: { detail: ApplicationDetail }) {
  const showIp = detail.sensitive_visible;
  // The NIP audit of the consent's (last) answered query, when its bureau asks for one.
  const auditOf = (consentId: string) =>
    detail.bureau_queries.findLast((query) => query.consent_id === consentId && query.audit_status !== null);
  return (
    <Section wide id="bo-consents" title="Consentimientos">
      {detail.consents.length === 0 ? (
        <p className="bo-muted">Sin consentimientos.</p>
      ) : (
        <DataTable
          columns={[
            'Fecha',
            'Persona',
            'NIP verificado',
            'Folio del buró',
            'folioCDC (auditoría NIP)',
            'Versión del texto',
            'Huella del texto (SHA-256)',
            showIp && 'IP',
            'Navegador',
            'Autorizado hasta',
          ]}
        >
          {detail.consents.map((consent) => (
            <DatedRow key={consent.id} at={consent.created_at}>
              <td>{personTypeName(consent.person_type)}</td>
              <td>{yesNo(consent.pin_verified)}</td>
              <td>{consent.bureau_folio}</td>
              <AuditCell query={auditOf(consent.id)} />
              <td>{consent.consent_version}</td>
              <td>
                <code className="bo-hash" title={consent.consent_text_sha256}>
                  {consent.consent_text_sha256.slice(0, 16)}…
                </code>
              </td>
              {showIp && <td>{consent.ip ?? '—'}</td>}
              <td className="bo-clip" title={consent.user_agent ?? undefined}>
                {consent.user_agent ?? '—'}
              </td>
              <td className="bo-nowrap">{formatDateTime(consent.authorized_until)}</td>
            </DatedRow>
          ))}
        </DataTable>
      )}
    </Section>
  );
}

/** The audit's folioCDC and where it stands, with its last error while it is not acknowledged. */
function AuditCell({ query }: { query: ApplicationDetail['bureau_queries'][number] | undefined }) {
  if (!query) return <td>—</td>;
  const status = AUDIT_STATUS_NAMES[query.audit_status ?? ''] ?? query.audit_status;
  return (
    <td>
      {query.audit_folio ?? '—'} ({query.audit_last_error ? `${status}: ${query.audit_last_error}` : status})
    </td>
  );
}

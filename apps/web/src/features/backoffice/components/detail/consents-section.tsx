import type { ApplicationDetail } from '@provee/domain';
import { formatDateTime } from '../../lib/format.js';
import { personTypeName } from '../../lib/labels.js';
import { Section, yesNo } from './section.js';

/**
 * Each consent with its evidence: when, from where, the PIN, and the exact text agreed to. Where
 * from (the IP) only for analysts and admins: the API sends it to no one else.
 */
export function ConsentsSection({ detail }: { detail: ApplicationDetail }) {
  const showIp = detail.sensitive_visible;
  return (
    <Section wide id="bo-consents" title="Consentimientos">
      {detail.consents.length === 0 ? (
        <p className="bo-muted">Sin consentimientos.</p>
      ) : (
        <div className="bo-table-wrap">
          <table className="bo-table">
            <thead>
              <tr>
                <th scope="col">Fecha</th>
                <th scope="col">Persona</th>
                <th scope="col">NIP verificado</th>
                <th scope="col">Folio del buró</th>
                <th scope="col">Versión del texto</th>
                <th scope="col">Huella del texto (SHA-256)</th>
                {showIp && <th scope="col">IP</th>}
                <th scope="col">Navegador</th>
                <th scope="col">Autorizado hasta</th>
              </tr>
            </thead>
            <tbody>
              {detail.consents.map((consent) => (
                <tr key={consent.id}>
                  <th scope="row" className="bo-nowrap">
                    {formatDateTime(consent.created_at)}
                  </th>
                  <td>{personTypeName(consent.person_type)}</td>
                  <td>{yesNo(consent.pin_verified)}</td>
                  <td>{consent.bureau_folio}</td>
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
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

import type { ApplicationDetail } from '@provee/domain';
import { formatDateTime } from '../../lib/format.js';
import { contactTypeName } from '../../lib/labels.js';
import { Section } from './section.js';

export function ContactsSection({ detail }: { detail: ApplicationDetail }) {
  return (
    <Section id="bo-contacts" title="Contactos con asesor">
      {detail.advisor_contacts.length === 0 ? (
        <p className="bo-muted">Sin contactos.</p>
      ) : (
        <table className="bo-table bo-table--narrow">
          <thead>
            <tr>
              <th scope="col">Fecha</th>
              <th scope="col">Tipo</th>
            </tr>
          </thead>
          <tbody>
            {detail.advisor_contacts.map((contact) => (
              <tr key={contact.id}>
                <th scope="row" className="bo-nowrap">
                  {formatDateTime(contact.created_at)}
                </th>
                <td>{contactTypeName(contact.contact_type)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

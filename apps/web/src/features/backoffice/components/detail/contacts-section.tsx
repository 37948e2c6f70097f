import type { ApplicationDetail } from '@provee/domain';
import { contactTypeName } from '../../lib/labels.js';
import { DataTable } from '../data-table.js';
import { DatedRow, Section } from './section.js';

export function ContactsSection({ detail }: { detail: ApplicationDetail }) {
  return (
    <Section id="bo-contacts" title="Contactos con asesor">
      {detail.advisor_contacts.length === 0 ? (
        <p className="bo-muted">Sin contactos.</p>
      ) : (
        <DataTable narrow columns={['Fecha', 'Tipo']}>
          {detail.advisor_contacts.map((contact) => (
            <DatedRow key={contact.id} at={contact.created_at}>
              <td>{contactTypeName(contact.contact_type)}</td>
            </DatedRow>
          ))}
        </DataTable>
      )}
    </Section>
  );
}

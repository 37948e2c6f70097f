import type { ApplicationDetail } from '@provee/domain';
import { maritalStatusName } from '../../lib/labels.js';
import { Facts, Section } from './section.js';

export function PersonSection({ detail }: { detail: ApplicationDetail }) {
  const { person } = detail;
  return (
    <Section id="bo-person" title="Datos personales">
      <Facts
        items={[
          ['Nombre(s)', person.name],
          ['Apellido paterno', person.lastname],
          ['Apellido materno', person.maternal_lastname],
          ['Identificación fiscal', person.tax_id],
          ['Fecha de nacimiento', person.birth_date],
          ['Estado civil', maritalStatusName(person.marital_status)],
          ['Años en el domicilio', person.length_of_residency_in_years],
          ['Teléfono', detail.phone],
        ]}
      />
      {!detail.sensitive_visible && (
        <p className="bo-muted">La identificación fiscal y la fecha de nacimiento se muestran ocultas para tu rol.</p>
      )}
    </Section>
  );
}

export function BusinessSection({ detail }: { detail: ApplicationDetail }) {
  const { business } = detail;
  return (
    <Section id="bo-business" title="Negocio">
      {business ? (
        <Facts
          items={[
            ['Nombre', business.name],
            ['Giro', business.business_type],
            ['Rango de ventas (id)', business.sales_range_id],
            ['Antigüedad', `${business.business_age_years} ${business.business_age_years === 1 ? 'año' : 'años'}`],
          ]}
        />
      ) : (
        <p className="bo-muted">Todavía no hay datos del negocio.</p>
      )}
    </Section>
  );
}

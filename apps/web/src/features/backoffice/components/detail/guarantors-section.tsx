import type { RegisterGuarantorBody } from '@provee/domain';
import { useState, type FormEvent } from 'react';
import { actions } from '../../api.js';
import { formatDateTime } from '../../lib/format.js';
import { AVAL_TYPE_NAMES, avalStatusName, avalTypeName } from '../../lib/labels.js';
import { useSubmit } from '../../lib/use-submit.js';
import { ErrorMessage } from '../messages.js';
import { ActionButton } from '../actions.js';
import { DataTable } from '../data-table.js';
import { SelectField } from '../select-field.js';
import { Section, type SectionProps } from './section.js';

export function GuarantorsSection({ detail, act, canAct }: SectionProps) {
  return (
    <Section wide id="bo-guarantors" title="Avales">
      {detail.guarantors.length === 0 ? (
        <p className="bo-muted">Sin avales.</p>
      ) : (
        <DataTable columns={['Nombre', 'Tipo', 'Teléfono', 'Estado', 'Registrado', canAct && 'Acciones']}>
          {detail.guarantors.map((aval) => (
            <tr key={aval.id}>
              <th scope="row">{aval.name ?? 'Sin nombre'}</th>
              <td>{avalTypeName(aval.aval_type)}</td>
              <td className="bo-nowrap">
                {aval.phone ?? '—'}
                <SharedPhone others={aval.phone_other_applications} />
              </td>
              <td>{avalStatusName(aval.status)}</td>
              <td className="bo-nowrap">{formatDateTime(aval.created_at)}</td>
              {canAct && (
                <td>
                  {aval.status === 'PENDING' && (
                    <ActionButton
                      label="Reenviar invitación"
                      name={`Reenviar invitación a ${aval.name ?? aval.phone ?? 'el aval'}`}
                      run={() =>
                        act(() => actions.resendInvitation(detail.id, aval.id), 'Invitación reenviada al aval')
                      }
                    />
                  )}
                </td>
              )}
            </tr>
          ))}
        </DataTable>
      )}
      {canAct && (
        <RegisterGuarantor
          withAddress={detail.country === 'mx'}
          run={(body) => act(() => actions.registerGuarantor(detail.id, body), 'Aval registrado')}
        />
      )}
    </Section>
  );
}

/**
 * A guarantor phone named on other applications too (issue 26): the same person guaranteeing
 * several shopkeepers, or a number made up more than once. Worth a call before approving.
 */
function SharedPhone({ others }: { others: number }) {
  if (others === 0) return null;
  return (
    <span className="bo-badge bo-badge--warn">
      También aval en {others} {others === 1 ? 'otra solicitud' : 'otras solicitudes'}
    </span>
  );
}

const EMPTY = {
  aval_type: 'PARTNER',
  name: '',
  lastname: '',
  maternal_lastname: '',
  phone_number: '',
  tax_payer_id: '',
  zip_code: '',
  state: '',
  city: '',
  neighborhood: '',
  street_name: '',
  street_number: '',
};
type Fields = typeof EMPTY;

/** The guarantor's home address, where the bureau files people by it (Mexico: Círculo de Crédito). */
const ADDRESS_FIELDS: [keyof Fields, string, number][] = [
  ['zip_code', 'Código postal', 5],
  ['state', 'Estado', 100],
  ['city', 'Municipio', 100],
  ['neighborhood', 'Colonia', 100],
  ['street_name', 'Calle', 120],
  ['street_number', 'Número', 20],
];

/** What the form sends: the address only where it is asked for (and filled in). */
function bodyOf(fields: Fields, withAddress: boolean): RegisterGuarantorBody {
  const { zip_code, state, city, neighborhood, street_name, street_number, aval_type, ...person } = fields;
  const address = { zip_code, state, city, neighborhood, street_name, street_number };
  const filled = withAddress && Object.values(address).some(Boolean);
  return { ...person, aval_type: aval_type as RegisterGuarantorBody['aval_type'], ...(filled ? { address } : {}) };
}

/**
 * Naming a guarantor for the shopkeeper (e.g. on the phone): the same fields as their form, the
 * surnames apart and, in Mexico, the home address Círculo de Crédito files people by.
 */
function RegisterGuarantor({
  withAddress,
  run,
}: {
  withAddress: boolean;
  run: (body: RegisterGuarantorBody) => Promise<void>;
}) {
  const [fields, setFields] = useState(EMPTY);
  const { pending, error, submit } = useSubmit();
  const input = (key: keyof Fields, label: string, maxLength: number, type = 'text') => (
    <label key={key}>
      {label}
      <input
        type={type}
        value={fields[key]}
        maxLength={maxLength}
        onChange={(e) => setFields({ ...fields, [key]: e.target.value })}
        autoComplete="off"
      />
    </label>
  );
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (await submit(() => run(bodyOf(fields, withAddress)))) setFields(EMPTY);
  };
  return (
    <form className="bo-subsection bo-form bo-form--grid" onSubmit={onSubmit} aria-labelledby="bo-new-aval" noValidate>
      <h3 id="bo-new-aval">Registrar aval</h3>
      <SelectField
        label="Tipo"
        options={Object.entries(AVAL_TYPE_NAMES)}
        value={fields.aval_type}
        onChange={(e) => setFields({ ...fields, aval_type: e.target.value })}
      />
      {input('name', 'Nombre(s)', 80)}
      {input('lastname', 'Apellido paterno', 60)}
      {input('maternal_lastname', 'Apellido materno', 60)}
      {input('phone_number', 'Celular', 20, 'tel')}
      {input('tax_payer_id', 'Identificación fiscal', 20)}
      {withAddress && ADDRESS_FIELDS.map(([key, label, max]) => input(key, `Domicilio: ${label.toLowerCase()}`, max))}
      <ErrorMessage error={error} />
      <div className="bo-actions">
        <button type="submit" className="bo-button bo-button--small" disabled={pending}>
          Registrar aval
        </button>
      </div>
    </form>
  );
}

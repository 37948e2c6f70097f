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
        <RegisterGuarantor run={(body) => act(() => actions.registerGuarantor(detail.id, body), 'Aval registrado')} />
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

const EMPTY: RegisterGuarantorBody = { aval_type: 'PARTNER', name: '', phone_number: '', tax_payer_id: '' };

/** Naming a guarantor for the shopkeeper (e.g. on the phone): the same fields as their form. */
function RegisterGuarantor({ run }: { run: (body: RegisterGuarantorBody) => Promise<void> }) {
  const [body, setBody] = useState(EMPTY);
  const { pending, error, submit } = useSubmit();
  const set = (key: keyof RegisterGuarantorBody) => (e: { target: { value: string } }) =>
    setBody({ ...body, [key]: e.target.value });
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (await submit(() => run(body))) setBody(EMPTY);
  };
  return (
    <form className="bo-subsection bo-form bo-form--grid" onSubmit={onSubmit} aria-labelledby="bo-new-aval" noValidate>
      <h3 id="bo-new-aval">Registrar aval</h3>
      <SelectField
        label="Tipo"
        options={Object.entries(AVAL_TYPE_NAMES)}
        value={body.aval_type}
        onChange={set('aval_type')}
      />
      <label>
        Nombre completo
        <input value={body.name} maxLength={80} onChange={set('name')} autoComplete="off" />
      </label>
      <label>
        Celular
        <input type="tel" value={body.phone_number} onChange={set('phone_number')} autoComplete="off" />
      </label>
      <label>
        Identificación fiscal
        <input value={body.tax_payer_id} maxLength={20} onChange={set('tax_payer_id')} autoComplete="off" />
      </label>
      <ErrorMessage error={error} />
      <div className="bo-actions">
        <button type="submit" className="bo-button bo-button--small" disabled={pending}>
          Registrar aval
        </button>
      </div>
    </form>
  );
}

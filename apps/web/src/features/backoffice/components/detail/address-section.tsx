import { useState, type FormEvent } from 'react';
import { actions, neighborhoods } from '../../api.js';
import { formatDateTime } from '../../lib/format.js';
import { useResource } from '../../lib/use-resource.js';
import { useSubmit } from '../../lib/use-submit.js';
import { ErrorMessage } from '../messages.js';
import { ActionButton } from '../actions.js';
import { Facts, Section, type SectionProps } from './section.js';

export function AddressSection({ detail, act, canAct }: SectionProps) {
  const { address } = detail;
  const toReview = address?.neighborhood_typed && !address.neighborhood_reviewed_at;
  return (
    <Section id="bo-address" title="Dirección">
      {address ? (
        <>
          <Facts
            items={[
              [
                'Calle y número',
                `${address.street_name} ${address.street_number}${address.apartment_number ? `, int. ${address.apartment_number}` : ''}`,
              ],
              [
                'Sector / colonia',
                <>
                  {address.neighborhood}
                  {address.neighborhood_typed && (
                    <span className="bo-badge bo-badge--warn">Escrito por el usuario</span>
                  )}
                </>,
              ],
              ['Ciudad', address.city],
              ['Provincia / estado', address.state],
              ['Código postal', address.zip_code],
              [
                'Sector revisado',
                address.neighborhood_reviewed_at ? formatDateTime(address.neighborhood_reviewed_at) : null,
              ],
            ]}
          />
          {toReview && canAct && (
            <div className="bo-subsection">
              <h3>Revisar el sector escrito</h3>
              <p className="bo-muted">El usuario escribió un sector que no está en el catálogo.</p>
              <ActionButton
                label="Confirmar sector"
                run={() => act(() => actions.reviewAddress(detail.id, { action: 'confirm' }), 'Sector confirmado')}
              />
              <CorrectNeighborhood
                cityId={address.municipality_id}
                run={(id) =>
                  act(
                    () => actions.reviewAddress(detail.id, { action: 'correct', neighborhood_id: id }),
                    'Sector corregido',
                  )
                }
              />
            </div>
          )}
        </>
      ) : (
        <p className="bo-muted">Todavía no hay dirección.</p>
      )}
    </Section>
  );
}

/** The city's catalogue when it is known and answers; otherwise the sector's id by hand. */
function CorrectNeighborhood({ cityId, run }: { cityId: number | null; run: (id: number) => Promise<void> }) {
  const catalogue = useResource(cityId === null ? null : String(cityId), () => neighborhoods(cityId!));
  const [value, setValue] = useState('');
  const { pending, error, setError, submit } = useSubmit();
  const options = catalogue.data ?? [];
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const id = Number(value);
    if (!Number.isInteger(id) || id <= 0) return setError('Elige un sector.');
    void submit(() => run(id));
  };
  return (
    <form className="bo-form bo-form--row" onSubmit={onSubmit} noValidate>
      {options.length > 0 ? (
        <label>
          Sector correcto
          <select aria-label="Sector correcto" value={value} onChange={(e) => setValue(e.target.value)}>
            <option value="">Elige un sector</option>
            {options.map((n) => (
              <option key={n.id} value={n.id}>
                {n.name}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <label>
          Id del sector correcto
          <input inputMode="numeric" value={value} onChange={(e) => setValue(e.target.value.replace(/\D/g, ''))} />
        </label>
      )}
      <button type="submit" className="bo-button bo-button--small" disabled={pending}>
        Corregir sector
      </button>
      <ErrorMessage error={error} />
    </form>
  );
}

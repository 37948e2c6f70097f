import { useId } from 'react';
import type { PolicyForm } from '../../lib/policy-form.js';
import { DataTable } from '../data-table.js';
import { FieldError, fieldA11y } from './field-error.js';

/** The document's limits on the lists (packages/domain credit-policy.ts). */
const MAX_ITEMS = 10;

interface Props {
  form: PolicyForm;
  onChange: (form: PolicyForm) => void;
  errors: Record<string, string>;
  editable: boolean;
}

function AmountInput({
  label,
  value,
  error,
  onChange,
}: {
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="bo-policy-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        inputMode="numeric"
        autoComplete="off"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        {...fieldA11y(id, error)}
      />
      <FieldError id={id} message={error} />
    </div>
  );
}

function SalesRangeAmounts({ form, onChange, errors, editable }: Props) {
  const listId = useId();
  const set = (amounts: string[]) => onChange({ ...form, amounts });
  return (
    <fieldset className="bo-policy-group">
      <legend>Monto base por rango de ventas semanales</legend>
      <div className="bo-policy-amounts">
        {form.amounts.map((amount, index) => (
          <AmountInput
            key={index}
            label={index === 0 ? 'Rango 1 (el más bajo)' : `Rango ${index + 1}`}
            value={amount}
            error={errors[`amount.by_sales_range.${index}`]}
            onChange={(value) => set(form.amounts.map((item, at) => (at === index ? value : item)))}
          />
        ))}
      </div>
      <FieldError id={listId} message={errors['amount.by_sales_range']} />
      {editable && (
        <div className="bo-actions">
          {form.amounts.length < MAX_ITEMS && (
            <button
              type="button"
              className="bo-button bo-button--small bo-button--quiet"
              onClick={() => set([...form.amounts, form.amounts.at(-1) ?? ''])}
            >
              Agregar rango
            </button>
          )}
          {form.amounts.length > 1 && (
            <button
              type="button"
              className="bo-button bo-button--small bo-button--quiet"
              onClick={() => set(form.amounts.slice(0, -1))}
            >
              Quitar el último rango
            </button>
          )}
        </div>
      )}
    </fieldset>
  );
}

function ScoreBands({ form, onChange, errors, editable }: Props) {
  const listId = useId();
  const set = (bands: PolicyForm['bands']) => onChange({ ...form, bands });
  const change = (index: number, key: 'min_score' | 'factor', value: string) =>
    set(form.bands.map((band, at) => (at === index ? { ...band, [key]: value } : band)));
  return (
    <fieldset className="bo-policy-group">
      <legend>Bandas de puntaje</legend>
      <p className="bo-muted">La banda más alta que alcanza el puntaje de buró multiplica el monto base.</p>
      <DataTable
        caption="Bandas de puntaje"
        narrow
        columns={['Banda', 'Desde el puntaje', 'Factor', editable && 'Quitar']}
      >
        {form.bands.map((band, index) => {
          const path = `amount.score_bands.${index}`;
          const scoreError = errors[`${path}.min_score`];
          const factorError = errors[`${path}.factor`];
          const scoreId = `${listId}-${index}-score`;
          const factorId = `${listId}-${index}-factor`;
          return (
            <tr key={index}>
              <th scope="row">Banda {index + 1}</th>
              <td>
                <input
                  aria-label={`Desde el puntaje, banda ${index + 1}`}
                  inputMode="numeric"
                  autoComplete="off"
                  value={band.min_score}
                  onChange={(e) => change(index, 'min_score', e.target.value)}
                  {...fieldA11y(scoreId, scoreError)}
                />
                <FieldError id={scoreId} message={scoreError} />
              </td>
              <td>
                <input
                  aria-label={`Factor, banda ${index + 1}`}
                  inputMode="decimal"
                  autoComplete="off"
                  value={band.factor}
                  onChange={(e) => change(index, 'factor', e.target.value)}
                  {...fieldA11y(factorId, factorError)}
                />
                <FieldError id={factorId} message={factorError} />
              </td>
              {editable && (
                <td>
                  {form.bands.length > 1 && (
                    <button
                      type="button"
                      className="bo-button bo-button--small bo-button--quiet"
                      aria-label={`Quitar la banda ${index + 1}`}
                      onClick={() => set(form.bands.filter((_, at) => at !== index))}
                    >
                      Quitar
                    </button>
                  )}
                </td>
              )}
            </tr>
          );
        })}
      </DataTable>
      <FieldError id={listId} message={errors['amount.score_bands']} />
      {editable && form.bands.length < MAX_ITEMS && (
        <div className="bo-actions">
          <button
            type="button"
            className="bo-button bo-button--small bo-button--quiet"
            onClick={() => set([...form.bands, { min_score: '', factor: '1' }])}
          >
            Agregar banda
          </button>
        </div>
      )}
    </fieldset>
  );
}

/** How much is lent: a base by weekly-sales range, multiplied by the score's band, up to a cap. */
export function AmountFields(props: Props) {
  const { form, onChange, errors } = props;
  return (
    <section className="bo-subsection" aria-labelledby="bo-policy-amount">
      <h3 id="bo-policy-amount">Monto del crédito</h3>
      <div className="bo-policy-amount-grid">
        <SalesRangeAmounts {...props} />
        <ScoreBands {...props} />
      </div>
      <div className="bo-policy-cap">
        <AmountInput
          label="Monto máximo"
          value={form.cap}
          error={errors['amount.cap']}
          onChange={(cap) => onChange({ ...form, cap })}
        />
      </div>
    </section>
  );
}

import type { PolicyRuleSpec } from '@provee/domain';
import { useId } from 'react';
import { reasonPath, thresholdPath, type RuleField } from '../../lib/policy-form.js';
import { ruleName } from '../../lib/policy-labels.js';
import { DataTable } from '../data-table.js';
import { FieldError, fieldA11y } from './field-error.js';

interface RuleRowProps {
  spec: PolicyRuleSpec;
  /** The author's draft (else the inputs are shown disabled). */
  editable: boolean;
  field: RuleField;
  onChange: (field: RuleField) => void;
  /** The refused save's messages by path in the document. */
  errors: Record<string, string>;
}

/** 'años · de 1 a 4': the unit and the range the API accepts. */
function hintOf(spec: PolicyRuleSpec): string {
  const range = spec.min !== undefined && spec.max !== undefined ? `de ${spec.min} a ${spec.max}` : '';
  return [spec.unit, range].filter(Boolean).join(' · ');
}

function Threshold({ spec, field, onChange, errors }: RuleRowProps) {
  const id = useId();
  const error = errors[thresholdPath(spec)];
  const name = ruleName(spec);
  if (spec.kind === 'boolean')
    return (
      <>
        <label className="bo-check">
          <input
            type="checkbox"
            checked={field.value === 'true'}
            onChange={(e) => onChange({ ...field, value: String(e.target.checked) })}
            {...fieldA11y(id, error)}
          />
          Solo municipios atendidos
        </label>
        <FieldError id={id} message={error} />
      </>
    );
  if (spec.kind === 'thin-file')
    return (
      <>
        <select
          aria-label={name}
          value={field.value}
          onChange={(e) => onChange({ ...field, value: e.target.value })}
          {...fieldA11y(id, error)}
        >
          <option value="approve">Aprobar</option>
          <option value="reject">Rechazar</option>
        </select>
        <FieldError id={id} message={error} />
      </>
    );
  const hint = hintOf(spec);
  return (
    <>
      <span className="bo-policy-threshold">
        <input
          aria-label={name}
          inputMode="numeric"
          autoComplete="off"
          value={field.value}
          disabled={spec.optional && !field.applied}
          onChange={(e) => onChange({ ...field, value: e.target.value })}
          {...fieldA11y(id, error, hint ? `${id}-hint` : undefined)}
        />
        {hint && (
          <span className="bo-muted" id={`${id}-hint`}>
            {hint}
          </span>
        )}
      </span>
      <FieldError id={id} message={error} />
    </>
  );
}

function RuleRow(props: RuleRowProps) {
  const { spec, field, onChange, errors, editable } = props;
  const reasonId = useId();
  const reasonError = errors[reasonPath(spec)];
  const name = ruleName(spec);
  const apply = (applied: boolean) =>
    // A rule applied again starts from its lowest value when it had none.
    onChange({ ...field, applied, value: applied && field.value === '' ? String(spec.min ?? 0) : field.value });
  return (
    <tr className={spec.optional && !field.applied ? 'bo-row--done' : undefined}>
      <th scope="row">{spec.input}</th>
      <td className="bo-policy-operator">{spec.operator}</td>
      <td>
        <Threshold {...props} />
      </td>
      <td>
        {spec.optional ? (
          <input
            type="checkbox"
            aria-label={`Aplicar: ${name}`}
            checked={field.applied}
            onChange={(e) => apply(e.target.checked)}
          />
        ) : (
          <span className="bo-muted">Siempre</span>
        )}
      </td>
      <td>
        <input
          className="bo-policy-reason"
          aria-label={`Motivo: ${name}`}
          value={field.reason}
          maxLength={200}
          placeholder={editable ? 'Opcional' : 'Sin motivo'}
          onChange={(e) => onChange({ ...field, reason: e.target.value })}
          {...fieldA11y(reasonId, reasonError)}
        />
        <FieldError id={reasonId} message={reasonError} />
      </td>
    </tr>
  );
}

/** One group's rules ('Solicitante', 'Aval'): what each reads, how, its threshold and the reason it records. */
export function RulesTable({
  title,
  rules,
  fields,
  onChange,
  errors,
  editable,
}: {
  title: string;
  editable: boolean;
  rules: readonly PolicyRuleSpec[];
  fields: Record<string, RuleField>;
  onChange: (rule: string, field: RuleField) => void;
  errors: Record<string, string>;
}) {
  return (
    <DataTable
      caption={title}
      showCaption
      unwrapped
      columns={['Dato', 'Condición', 'Umbral', 'Aplicar', 'Motivo que se registra al rechazar']}
    >
      {rules.map((spec) => (
        <RuleRow
          key={spec.rule}
          spec={spec}
          field={fields[spec.rule]!}
          onChange={(field) => onChange(spec.rule, field)}
          errors={errors}
          editable={editable}
        />
      ))}
    </DataTable>
  );
}

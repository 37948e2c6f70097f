import type { PolicyDetailView } from '@provee/domain';
import { useId, useState, type FormEvent } from 'react';
import { policies } from '../../policies-api.js';
import { documentOf, formOf, shownPaths, splitIssues, type PolicyForm } from '../../lib/policy-form.js';
import { RULE_GROUPS } from '../../lib/policy-labels.js';
import { useSubmit } from '../../lib/use-submit.js';
import { ErrorMessage } from '../messages.js';
import { AmountFields } from './amount-fields.js';
import { ConfirmButton } from './confirm-button.js';
import { FieldError, fieldA11y } from './field-error.js';
import { RulesTable } from './rules-table.js';

type Act = (run: () => Promise<unknown>, success: string) => Promise<void>;

/** Why the rules are shown but not editable. */
function readOnlyReason(detail: PolicyDetailView): string {
  if (detail.status === 'PUBLISHED')
    return 'Una versión publicada no cambia. Para cambiarla, empieza un borrador a partir de ella.';
  if (detail.status === 'DISCARDED') return 'Este borrador se descartó: ya no se edita ni se publica.';
  return `Solo quien empezó este borrador (${detail.author.name}) puede cambiarlo.`;
}

/**
 * The version's rules as a form: each rule of the catalogue with its threshold, whether it applies
 * and its reason, then the amount and the description. Its author saves it (with the revision read,
 * so a save over a newer one is refused); anyone else reads it.
 */
export function PolicyEditor({ detail, act }: { detail: PolicyDetailView; act: Act }) {
  // The parent keys this by revision: a saved draft comes back as a fresh form.
  const [form, setForm] = useState<PolicyForm>(() => formOf(detail.document));
  const { pending, error, submit } = useSubmit();
  const descriptionId = useId();
  const editable = detail.may_edit;
  const { byPath, rest } = splitIssues(error, shownPaths(form));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(() =>
      act(
        () => policies.save(detail.id, { revision: detail.revision, document: documentOf(form) }),
        `Borrador ${detail.label} guardado`,
      ),
    );
  };

  return (
    <form className="bo-card bo-form" aria-labelledby="bo-policy-rules" onSubmit={onSubmit} noValidate>
      <h2 id="bo-policy-rules">Reglas</h2>
      {!editable && <p className="bo-muted">{readOnlyReason(detail)}</p>}
      <fieldset className="bo-policy-fieldset" disabled={!editable}>
        <legend className="visually-hidden">Reglas de la versión {detail.label}</legend>
        {RULE_GROUPS.map((group) => (
          <RulesTable
            key={group.title}
            title={group.title}
            rules={group.rules}
            fields={form.rules}
            errors={byPath}
            editable={editable}
            onChange={(rule, field) =>
              setForm((current) => ({ ...current, rules: { ...current.rules, [rule]: field } }))
            }
          />
        ))}
        <AmountFields form={form} onChange={setForm} errors={byPath} editable={editable} />
        <div className="bo-policy-field bo-policy-description">
          <label htmlFor={descriptionId}>Descripción</label>
          <textarea
            id={descriptionId}
            rows={2}
            maxLength={500}
            value={form.description}
            onChange={(e) => setForm({ ...form, description: e.target.value })}
            {...fieldA11y(descriptionId, byPath.description)}
          />
          <FieldError id={descriptionId} message={byPath.description} />
        </div>
      </fieldset>
      <ErrorMessage error={rest} />
      {editable && (
        <div className="bo-actions">
          <button type="submit" className="bo-button" disabled={pending}>
            Guardar borrador
          </button>
          <ConfirmButton
            label="Descartar borrador"
            title={`¿Descartar el borrador ${detail.label}?`}
            confirm="Descartar"
            tone="danger"
            run={() => act(() => policies.discard(detail.id), `Borrador ${detail.label} descartado`)}
          >
            <p>Queda en la lista como descartado: ya no se edita, no se prueba ni se publica.</p>
          </ConfirmButton>
        </div>
      )}
    </form>
  );
}

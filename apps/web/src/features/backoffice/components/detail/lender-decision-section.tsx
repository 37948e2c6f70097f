import {
  ANNUAL_RATE_PERCENT,
  LENDER_OUTCOME_NAMES,
  recordLenderDecisionRoute,
  TERM_MONTHS,
  type ApplicationDetail,
  type LenderDecisionBody,
} from '@provee/domain';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { BackofficeError, backofficeRequest } from '../../api.js';
import { formatMoney } from '../../lib/format.js';
import { useSubmit } from '../../lib/use-submit.js';
import { DataTable } from '../data-table.js';
import { ErrorMessage } from '../messages.js';
import '../lender-systems.css';
import { DatedRow, Section, type SectionProps } from './section.js';

const rate = new Intl.NumberFormat('es-DO', { maximumFractionDigits: 2 });
const months = (n: number) => `${n} ${n === 1 ? 'mes' : 'meses'}`;

/** The pre-approval an approval may not exceed: the applicant's latest approved decision (not a guarantor's). */
function preApproval(detail: ApplicationDetail) {
  return detail.decisions
    .filter((decision) => decision.result === 'APPROVED' && decision.aval_id === null)
    .reduce<ApplicationDetail['decisions'][number] | undefined>(
      (latest, decision) => (!latest || decision.created_at > latest.created_at ? decision : latest),
      undefined,
    );
}

/**
 * 'Decisión del prestamista' (issue 30): what the lender decided after the pre-approval (by its
 * systems or here), and for analysts the decision itself where the application stands.
 */
export function LenderDecisionSection({ detail, act, canAct }: SectionProps) {
  const decisions = detail.lender_decisions;
  const deciding = detail.next_step === 'PENDING_APPROVAL' && detail.status !== 'REJECTED';
  const disbursing = detail.next_step === 'APPROVED';
  const record = (body: LenderDecisionBody, success: string) =>
    // The call is this section's own (not in api.ts): it loads with the detail, not the back office's first screen.
    act(() => backofficeRequest(recordLenderDecisionRoute, { params: { applicationId: detail.id }, body }), success);
  return (
    <Section wide id="bo-lender-decision" title="Decisión del prestamista">
      {decisions.length === 0 ? (
        <p className="bo-muted">
          {deciding || disbursing
            ? 'Todavía no hay decisión del prestamista.'
            : 'El prestamista decide cuando la solicitud llega a «Pendiente de aprobación».'}
        </p>
      ) : (
        <DataTable
          caption="Decisiones del prestamista"
          columns={['Fecha', 'Decisión', 'Monto', 'Plazo', 'Tasa anual', 'Motivo', 'Referencia', 'Registrada por']}
        >
          {decisions.map((decision) => (
            <DatedRow key={decision.id} at={decision.decided_at}>
              <td>{LENDER_OUTCOME_NAMES[decision.outcome] ?? decision.outcome}</td>
              <td className="bo-nowrap">
                {decision.amount === null ? '—' : formatMoney(decision.amount, decision.currency ?? '')}
              </td>
              <td className="bo-nowrap">{decision.term_months === null ? '—' : months(decision.term_months)}</td>
              <td className="bo-nowrap">
                {decision.annual_rate === null ? '—' : `${rate.format(decision.annual_rate)} %`}
              </td>
              <td>{decision.reason ?? '—'}</td>
              <td>{decision.reference ?? '—'}</td>
              <td>{decision.decided_by_name}</td>
            </DatedRow>
          ))}
        </DataTable>
      )}
      {canAct && deciding && (
        <div className="bo-decision-forms">
          <ApproveForm
            preApproved={preApproval(detail)}
            run={(body) => record(body, 'Aprobación del prestamista registrada')}
          />
          <DeclineForm run={(body) => record(body, 'Rechazo del prestamista registrado')} />
        </div>
      )}
      {canAct && disbursing && (
        <DisburseForm unsigned={unsignedSigners(detail)} run={(body) => record(body, 'Desembolso registrado')} />
      )}
    </Section>
  );
}

type Run = (body: LenderDecisionBody) => Promise<void>;

/** Signers yet to sign: the API records a disbursement only once every one signed (none yet counts as unsigned). */
const unsignedSigners = (detail: ApplicationDetail) =>
  detail.signers.length === 0 ? 1 : detail.signers.filter((signer) => !signer.signed_at).length;

/**
 * The 400's field messages under their fields (the API's words, `body.<field>`), and the rest of
 * the refusal, whatever it is (a 409's readable message), under the form.
 */
function useFieldErrors<F extends string>(fields: readonly F[]) {
  const { pending, error, submit } = useSubmit();
  const byField: Partial<Record<F, string>> = {};
  let rest: BackofficeError | string | null = error;
  if (error instanceof BackofficeError && error.issues.length > 0) {
    const others = error.issues.filter((issue) => {
      const field = issue.field.replace(/^body\./, '') as F;
      if (!fields.includes(field)) return true;
      byField[field] ??= issue.message;
      return false;
    });
    rest = new BackofficeError(error.status, error.code, error.readableMessage, others);
  }
  return { pending, submit, byField, rest };
}

/** A labelled input with its hint and, after a refusal, its message under it. */
function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: string;
  error: string | undefined;
  children: (props: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = useId();
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ');
  return (
    <div className="bo-field">
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        ...(error ? { 'aria-invalid': true } : {}),
        ...(described ? { 'aria-describedby': described } : {}),
      })}
      {hint && (
        <p className="bo-muted bo-field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="bo-field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** What was typed as a number; an empty field goes as none (the API names what is missing). */
const typed = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim()));

function ApproveForm({
  preApproved,
  run,
}: {
  preApproved: ApplicationDetail['decisions'][number] | undefined;
  run: Run;
}) {
  const [fields, setFields] = useState({ amount: preApproved ? String(preApproved.amount) : '', term: '', rate: '' });
  const { pending, submit, byField, rest } = useFieldErrors(['amount', 'term_months', 'annual_rate'] as const);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(() =>
      run({
        outcome: 'APPROVED',
        // Thousands separators and a decimal comma, as people write them.
        amount: typed(fields.amount.replace(/[\s,]/g, '')),
        term_months: typed(fields.term),
        annual_rate: typed(fields.rate.replace(',', '.')),
      }),
    );
  };
  const set = (key: keyof typeof fields) => (e: { target: { value: string } }) =>
    setFields({ ...fields, [key]: e.target.value });
  return (
    <form className="bo-form bo-decision-form" onSubmit={onSubmit} aria-labelledby="bo-approve" noValidate>
      <h3 id="bo-approve">Aprobar</h3>
      <Field
        label={`Monto aprobado${preApproved ? ` (${preApproved.currency})` : ''}`}
        hint={
          preApproved
            ? `Preaprobado: ${formatMoney(preApproved.amount, preApproved.currency)}; no puede ser mayor.`
            : undefined
        }
        error={byField.amount}
      >
        {(props) => <input {...props} inputMode="numeric" value={fields.amount} onChange={set('amount')} />}
      </Field>
      <Field label="Plazo (meses)" hint={`De ${TERM_MONTHS.min} a ${TERM_MONTHS.max}.`} error={byField.term_months}>
        {(props) => <input {...props} inputMode="numeric" value={fields.term} onChange={set('term')} />}
      </Field>
      <Field
        label="Tasa anual (%)"
        hint={`De ${ANNUAL_RATE_PERCENT.min} a ${ANNUAL_RATE_PERCENT.max}, hasta dos decimales.`}
        error={byField.annual_rate}
      >
        {(props) => <input {...props} inputMode="decimal" value={fields.rate} onChange={set('rate')} />}
      </Field>
      <ErrorMessage error={rest} />
      <div className="bo-actions">
        <button type="submit" className="bo-button" disabled={pending}>
          Aprobar
        </button>
      </div>
    </form>
  );
}

function DeclineForm({ run }: { run: Run }) {
  const [reason, setReason] = useState('');
  const { pending, submit, byField, rest } = useFieldErrors(['reason'] as const);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(() => run({ outcome: 'DECLINED', reason }));
  };
  return (
    <form className="bo-form bo-decision-form" onSubmit={onSubmit} aria-labelledby="bo-decline" noValidate>
      <h3 id="bo-decline">Rechazar</h3>
      <Field label="Motivo del rechazo" hint="Queda en el historial de la solicitud." error={byField.reason}>
        {(props) => (
          <textarea {...props} rows={3} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
        )}
      </Field>
      <ErrorMessage error={rest} />
      <div className="bo-actions">
        <button type="submit" className="bo-button bo-button--danger" disabled={pending}>
          Rechazar
        </button>
      </div>
    </form>
  );
}

function DisburseForm({ unsigned, run }: { unsigned: number; run: Run }) {
  const [reference, setReference] = useState('');
  const { pending, submit, byField, rest } = useFieldErrors(['reference'] as const);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const given = reference.trim();
    void submit(() => run({ outcome: 'DISBURSED', ...(given ? { reference: given } : {}) }));
  };
  return (
    <form className="bo-form bo-decision-form" onSubmit={onSubmit} aria-labelledby="bo-disburse" noValidate>
      <h3 id="bo-disburse">Desembolso</h3>
      {unsigned > 0 && (
        <p className="bo-muted">
          Todavía faltan firmas del contrato: el desembolso se registra cuando todos los firmantes firmaron.
        </p>
      )}
      <Field
        label="Referencia del desembolso (opcional)"
        hint="La del pago o la transferencia en los sistemas del prestamista."
        error={byField.reference}
      >
        {(props) => (
          <input {...props} maxLength={100} value={reference} onChange={(e) => setReference(e.target.value)} />
        )}
      </Field>
      <ErrorMessage error={rest} />
      <div className="bo-actions">
        <button type="submit" className="bo-button" disabled={pending}>
          Marcar como desembolsado
        </button>
      </div>
    </form>
  );
}

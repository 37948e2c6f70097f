import type { BacktestView, PolicyDetailView } from '@provee/domain';
import { useEffect, useState, type FormEvent } from 'react';
import type { BackofficeError } from '../../api.js';
import { formatInteger, localDate } from '../../lib/format.js';
import { splitIssues } from '../../lib/policy-form.js';
import { asBackofficeError } from '../../lib/use-resource.js';
import { useSubmit } from '../../lib/use-submit.js';
import { backtests } from '../../policies-api.js';
import { ErrorMessage } from '../messages.js';
import { BacktestResult } from './backtest-result.js';
import { FieldError, fieldA11y } from './field-error.js';

/** How often a backtest that runs as a job is asked about. */
export const BACKTEST_POLL_MS = 1_000;
const FIELDS = new Set(['from', 'to', 'utm_source']);

/** A backtest running as a job, asked about every second until it is done (or failed). */
function usePolledBacktest() {
  const [view, setView] = useState<BacktestView | null>(null);
  const [error, setError] = useState<BackofficeError | null>(null);
  useEffect(() => {
    if (view?.status !== 'RUNNING') return;
    let current = true;
    const timer = setTimeout(() => {
      backtests.get(view.id).then(
        (next) => current && setView(next),
        (failure: unknown) => current && setError(asBackofficeError(failure)),
      );
    }, BACKTEST_POLL_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [view]);
  const start = (next: BacktestView | null) => {
    setError(null);
    setView(next);
  };
  return { view, error, start };
}

function Progress({ view }: { view: BacktestView }) {
  return (
    <div className="bo-backtest-progress" role="status">
      <progress value={view.processed} max={Math.max(view.total, 1)} aria-label="Avance de la prueba" />
      <p>
        Procesadas {formatInteger(view.processed)} de {formatInteger(view.total)} decisiones…
      </p>
    </div>
  );
}

/**
 * 'Probar con decisiones pasadas': the saved version replayed over a range's decisions beside the
 * live one (their stored inputs, no bureau call). A small range answers at once; a large one runs
 * as a job whose progress shows until it is done.
 */
export function BacktestCard({ detail }: { detail: PolicyDetailView }) {
  const [fields, setFields] = useState({ from: localDate(29), to: localDate(0), utm: '' });
  const polled = usePolledBacktest();
  const { pending, error, submit } = useSubmit();
  const { byPath, rest } = splitIssues(error, FIELDS, 'body.');
  const view = polled.view;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    polled.start(null);
    const utm = fields.utm.trim();
    void submit(async () =>
      polled.start(
        await backtests.start(detail.id, { from: fields.from, to: fields.to, ...(utm ? { utm_source: utm } : {}) }),
      ),
    );
  };
  const input = (key: keyof typeof fields, path: string, label: string, type = 'text') => (
    <label>
      {label}
      <input
        type={type}
        value={fields[key]}
        maxLength={type === 'text' ? 100 : undefined}
        autoComplete="off"
        onChange={(e) => setFields({ ...fields, [key]: e.target.value })}
        {...fieldA11y(`bo-backtest-${path}`, byPath[path])}
      />
      <FieldError id={`bo-backtest-${path}`} message={byPath[path]} />
    </label>
  );

  return (
    <section className="bo-card" aria-labelledby="bo-policy-backtest">
      <h2 id="bo-policy-backtest">Prueba con decisiones pasadas</h2>
      <p className="bo-muted">
        Cada decisión del rango se juzga otra vez con los datos que se guardaron de ella (sin consultar el buró), con
        esta versión y con la vigente: lo único que cambia es la versión. Se prueba la versión guardada.
      </p>
      <form
        className="bo-form--row bo-backtest-form"
        onSubmit={onSubmit}
        aria-label="Probar con decisiones pasadas"
        noValidate
      >
        {input('from', 'from', 'Desde', 'date')}
        {input('to', 'to', 'Hasta', 'date')}
        {input('utm', 'utm_source', 'Fuente UTM (opcional)')}
        <button type="submit" className="bo-button" disabled={pending || view?.status === 'RUNNING'}>
          Probar con decisiones pasadas
        </button>
      </form>
      <ErrorMessage error={rest ?? polled.error} />
      {pending && (
        <p className="bo-muted" role="status">
          Probando…
        </p>
      )}
      {view?.status === 'RUNNING' && <Progress view={view} />}
      {view?.status === 'FAILED' && <ErrorMessage error="La prueba no pudo terminar. Intenta de nuevo." />}
      {view?.status === 'DONE' && <BacktestResult view={view} />}
    </section>
  );
}

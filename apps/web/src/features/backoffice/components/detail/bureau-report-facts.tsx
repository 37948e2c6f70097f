import type { ApplicationDetail } from '@provee/domain';
import { Facts } from './section.js';

type BureauQuery = ApplicationDetail['bureau_queries'][number];

/** The fuller reading a real bureau's report carries (`details`, from Círculo's answer); the simulator's has none. */
interface ReportDetails {
  no_record?: true;
  scores?: Record<string, number | null>;
  inquiries_3_months?: number;
  inquiries_6_months?: number;
  inquiries_12_months?: number;
  prevention_keys?: string[];
  messages?: string[];
}

const listed = (values: string[] | undefined) => (values?.length ? values.join(' · ') : 'Ninguna');

/** What the bureau reported, as facts an analyst reads (never the JSON). */
export function ReportFacts({ report }: { report: Record<string, unknown> }) {
  const details = (report.details ?? {}) as ReportDetails;
  if (details.no_record) return <p>Sin registro en el buró</p>;
  const inquiries = [details.inquiries_3_months, details.inquiries_6_months, details.inquiries_12_months];
  return (
    <Facts
      items={[
        ['FICO Score', (report.score ?? details.scores?.FICO) as number | null],
        ['Cuentas abiertas', report.open_accounts as number],
        ['Cuentas con saldo vencido', report.delinquencies as number],
        ['Peor atraso vencido (días)', report.worst_past_due_delay_days as number],
        [
          'Consultas 3 / 6 / 12 meses',
          inquiries.every((count) => count === undefined) ? (report.recent_inquiries as number) : inquiries.join(' / '),
        ],
        ['Claves de prevención', listed(details.prevention_keys)],
        ['Mensajes', listed(details.messages)],
      ]}
    />
  );
}

/** A query the bureau will not answer by itself again: said out loud, with what to check. */
export function BureauAlert({ query }: { query: BureauQuery }) {
  if (query.failure === 'integrity')
    return (
      <p className="bo-error" role="alert">
        Alerta de integridad: la firma de la respuesta del buró no es válida; no se usó para decidir. Revisa el
        certificado configurado.
      </p>
    );
  if (query.failure === 'refused')
    return (
      <p className="bo-error" role="alert">
        El buró rechazó la consulta: {query.last_error ?? '—'}. Revisa la configuración o los datos.
      </p>
    );
  return null;
}

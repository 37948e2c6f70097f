import { z } from 'zod';

/**
 * Círculo's RCC + FICO Score answer (`Respuesta`, rcc-ficoscore-client-java `client/model`), read
 * only as far as the policy and the back office need it. Its published sample answer
 * (genera-reporte-RCC `Main.java`) sends most numbers as strings ("saldoVencido":"70"), so a
 * number is taken in either form; an empty or unreadable one is unknown (null), never zero, and
 * does not make the report unreadable.
 */
const amount = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((value) => {
    if (value === null || value === undefined) return null;
    const number = typeof value === 'number' ? value : /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
    return Number.isFinite(number) ? number : null;
  });
const text = z.string().nullish();

const credito = z.object({
  nombreOtorgante: text,
  tipoCredito: text,
  frecuenciaPagos: text,
  fechaAperturaCuenta: text,
  fechaCierreCuenta: text,
  saldoActual: amount,
  saldoVencido: amount,
  numeroPagosVencidos: amount,
  peorAtraso: amount,
  pagoActual: text,
  clavePrevencion: text,
});

const respuesta = z.object({
  folioConsulta: z.union([z.string().trim().min(1).max(40), z.number().int().nonnegative()]).transform(String),
  /** Whom the report is about: compared with whom we asked before anything else is read. */
  persona: z.object({ RFC: text, apellidoPaterno: text, fechaNacimiento: text }).partial().nullish(),
  consultas: z.array(z.object({ fechaConsulta: text, nombreOtorgante: text })).nullish(),
  creditos: z.array(credito).nullish(),
  scores: z.array(z.object({ nombreScore: text, valor: amount, razones: z.array(z.string()).nullish() })).nullish(),
  mensajes: z.array(z.object({ tipoMensaje: z.union([z.string(), z.number()]).nullish(), leyenda: text })).nullish(),
});
export type Respuesta = z.infer<typeof respuesta>;

/** What the credit policy and the back office read of a report. */
export interface NormalisedReport {
  folio: string;
  /** Each score by its name ('FICO' → 720); a value outside FICO's 300–850 is an exclusion, not a score. */
  scores: Record<string, number | null>;
  /** The FICO Score, or null when the report has none. */
  score: number | null;
  /** The reasons Círculo gives for the FICO Score (its codes). */
  scoreReasons: string[];
  openAccounts: number;
  /** Open accounts with an amount past due. */
  accountsPastDue: number;
  /**
   * The worst delay, in days, of an open account with an amount past due (0 when none); null when
   * such an account says nothing of its delay (the policy's rule then fails: closed, not open).
   */
  worstPastDueDelayDays: number | null;
  /** The worst delay, in days, of any account in the history. */
  worstDelayDays: number;
  inquiries: { last3Months: number; last6Months: number; last12Months: number };
  /** Prevention keys on any account (clavePrevencion). */
  preventionKeys: string[];
  messages: string[];
}

/**
 * Days between two payments, by `frecuenciaPagos` (the bureaus' payment-frequency catalogue:
 * S semanal, C catorcenal, Q quincenal, M mensual, B bimestral, T trimestral, E semestral, A anual);
 * revolving minimum payments, payroll deductions, single payments and anything unknown count as monthly.
 */
const DAYS_BETWEEN_PAYMENTS: Record<string, number> = { S: 7, C: 14, Q: 15, M: 30, B: 60, T: 90, E: 180, A: 360 };
const daysBetweenPayments = (frequency: string | null | undefined) =>
  DAYS_BETWEEN_PAYMENTS[(frequency ?? '').trim().toUpperCase()] ?? 30;

/** `pagoActual` as payments late now: 'V' (up to date) is 0, '03' is 3, anything else unknown. */
function paymentsLateNow(pagoActual: string | null | undefined): number | null {
  const value = (pagoActual ?? '').trim();
  if (value === 'V') return 0;
  return /^\d{1,2}$/.test(value) ? Number(value) : null;
}

/**
 * An account's worst delay in days: the most payments it missed — its worst (`peorAtraso`), and
 * never less than those missed now (`numeroPagosVencidos`, `pagoActual`) — times the days between
 * payments; null when it says none of these.
 */
function delayDays(credit: z.infer<typeof credito>): number | null {
  const missed = [credit.peorAtraso, credit.numeroPagosVencidos, paymentsLateNow(credit.pagoActual)].filter(
    (value): value is number => value !== null,
  );
  return missed.length === 0 ? null : Math.max(0, ...missed) * daysBetweenPayments(credit.frecuenciaPagos);
}

/** The answer's JSON as Círculo's model has it, or null when it is not one. */
export function parseRespuesta(json: unknown): Respuesta | null {
  const parsed = respuesta.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** The report's facts, counting inquiries back from `now`. */
export function normaliseReport(answer: Respuesta, now: Date): NormalisedReport {
  const creditos = answer.creditos ?? [];
  const open = creditos.filter((credit) => !credit.fechaCierreCuenta?.trim());
  const pastDue = open.filter((credit) => (credit.saldoVencido ?? 0) > 0);
  const pastDueDelays = pastDue.map(delayDays);
  const scores: Record<string, number | null> = {};
  let scoreReasons: string[] = [];
  for (const score of answer.scores ?? []) {
    const name = (score.nombreScore ?? '').trim().toUpperCase();
    if (!name) continue;
    const value = score.valor ?? null;
    scores[name] = value !== null && value >= 300 && value <= 850 ? value : null;
    if (name.startsWith('FICO')) scoreReasons = score.razones ?? [];
  }
  const ficoName = Object.keys(scores).find((name) => name.startsWith('FICO'));
  return {
    folio: answer.folioConsulta,
    scores,
    score: ficoName ? (scores[ficoName] ?? null) : null,
    scoreReasons,
    openAccounts: open.length,
    accountsPastDue: pastDue.length,
    worstPastDueDelayDays: pastDueDelays.some((days) => days === null)
      ? null
      : Math.max(0, ...(pastDueDelays as number[])),
    worstDelayDays: Math.max(0, ...creditos.map((credit) => delayDays(credit) ?? 0)),
    inquiries: {
      last3Months: inquiriesSince(answer, monthsBefore(now, 3)),
      last6Months: inquiriesSince(answer, monthsBefore(now, 6)),
      last12Months: inquiriesSince(answer, monthsBefore(now, 12)),
    },
    preventionKeys: [...new Set(creditos.map((credit) => credit.clavePrevencion?.trim() ?? '').filter(Boolean))],
    messages: (answer.mensajes ?? []).map((message) => message.leyenda?.trim() ?? '').filter(Boolean),
  };
}

/**
 * Whether the report is about the person asked: the RFC's first ten characters (names and birth
 * date; the homoclave may be Círculo's own), the paternal surname and the birth date, where the
 * answer gives them. A signed answer about someone else (a replay) is not this person's report.
 */
export function reportIsAbout(
  answer: Respuesta,
  asked: { RFC?: string; apellidoPaterno: string; fechaNacimiento: string },
): boolean {
  const about = answer.persona;
  const pairs: [string | null | undefined, string | undefined, number?][] = [
    [about?.RFC, asked.RFC, 10],
    [about?.fechaNacimiento, asked.fechaNacimiento],
    [about?.apellidoPaterno, asked.apellidoPaterno],
  ];
  const compared = pairs.filter(([given, sent]) => given && sent);
  const normal = (value: string, length?: number) => value.trim().toUpperCase().slice(0, length);
  // The RFC or the birth date must be there to compare: a report that names no one is no one's.
  const identified = Boolean((about?.RFC && asked.RFC) || (about?.fechaNacimiento && asked.fechaNacimiento));
  return identified && compared.every(([given, sent, length]) => normal(given!, length) === normal(sent!, length));
}

function monthsBefore(now: Date, months: number): string {
  const date = new Date(now);
  date.setUTCMonth(date.getUTCMonth() - months);
  return date.toISOString().slice(0, 10);
}

function inquiriesSince(answer: Respuesta, since: string): number {
  return (answer.consultas ?? []).filter((inquiry) => (inquiry.fechaConsulta ?? '') >= since).length;
}

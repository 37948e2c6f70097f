import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { withTimeout } from '../with-timeout.js';

/**
 * The process's metrics in the Prometheus format (prom-client, issue 32): one registry per process,
 * read at /metrics (plugins/app/metrics.ts). Labels are routes, kinds, providers and outcomes: never
 * a phone, an id, a name or a value a person typed.
 */
export const registry = new Registry();

// Event-loop delay, heap, RSS, CPU, handles and GC: prom-client's standard process metrics.
collectDefaultMetrics({ register: registry });

const registers = [registry];

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpRequests = new Counter({
  name: 'provee_http_requests_total',
  help: 'HTTP requests answered, by route template, method and status.',
  labelNames: ['route', 'method', 'status'] as const,
  registers,
});

export const httpDuration = new Histogram({
  name: 'provee_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by route template and method.',
  labelNames: ['route', 'method'] as const,
  buckets: SECONDS,
  registers,
});

export const providerCalls = new Counter({
  name: 'provee_provider_calls_total',
  help: 'Calls to third parties (SMS, reverse OTP, bureau, places), by provider, operation and outcome; the identity verifier calls us (provee_identity_answers_total).',
  labelNames: ['provider', 'operation', 'outcome'] as const,
  registers,
});

export const providerDuration = new Histogram({
  name: 'provee_provider_call_duration_seconds',
  help: 'Time a call to a third party took, by provider and operation.',
  labelNames: ['provider', 'operation'] as const,
  buckets: SECONDS,
  registers,
});

export const identityAnswers = new Counter({
  name: 'provee_identity_answers_total',
  help: "The identity verifier's first answers to its checks (simulator, MetaMap), by provider and status (APPROVED, REJECTED, UNDER_REVIEW).",
  labelNames: ['provider', 'status'] as const,
  registers,
});

export const identityAnswerDelay = new Histogram({
  name: 'provee_identity_answer_delay_seconds',
  help: "Time from a check's start to the identity verifier's answer, by provider.",
  labelNames: ['provider'] as const,
  buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
  registers,
});

export const jobRuns = new Counter({
  name: 'provee_job_runs_total',
  help: "Runs of this process's job workers, by job kind and outcome (ok, failed).",
  labelNames: ['kind', 'outcome'] as const,
  registers,
});

export const webhookDeliveries = new Counter({
  name: 'provee_webhook_deliveries_total',
  help: 'Tries to deliver a webhook, by outcome (delivered, failed: retried later; gave_up: no try left).',
  labelNames: ['outcome'] as const,
  registers,
});

export const businessEvents = new Counter({
  name: 'provee_business_events_total',
  help: 'What applicants did, counted once committed: applications started, phones proven, consents, decisions by outcome, guarantors consented, signatures.',
  labelNames: ['event', 'outcome'] as const,
  registers,
});

/** What the gauges read when scraped: the database of the app this process serves. */
export interface ScrapedSources {
  /** Jobs waiting (created or retry) or running, per kind, and the age of the oldest waiting one. */
  jobQueue(): Promise<{ kind: string; state: 'waiting' | 'active'; count: number; oldestSeconds: number }[]>;
  /** PGlite: queries sent to its thread and not answered yet (null on PostgreSQL). */
  embeddedQueue(): number | null;
}

let sources: ScrapedSources | undefined;

/** The app whose queue and database the gauges read (the last one built in this process). */
export function readFrom(next: ScrapedSources): void {
  sources = next;
}

/** That app is closing: the gauges read nothing (unless another app took its place). */
export function stopReadingFrom(closing: ScrapedSources): void {
  if (sources === closing) sources = undefined;
}

/** How long a scrape waits for the queue's depth before it reports the rest without it. */
const QUEUE_READ_MS = 2_000;

const sourceErrors = new Counter({
  name: 'provee_metrics_source_errors_total',
  help: "Scrapes that reported the job queue's gauges empty: the database did not answer in time.",
  registers,
});

type QueueRow = Awaited<ReturnType<ScrapedSources['jobQueue']>>[number];
let queueRead: Promise<QueueRow[]> | undefined;

/**
 * The queue's depth for this scrape: one read shared by both gauges, whose collects run at once. A
 * database that fails or is slow leaves them empty (and counts it) instead of failing the scrape,
 * so the process's other metrics still reach Prometheus during an outage.
 */
function queueRows(): Promise<QueueRow[]> {
  queueRead ??= (async () => {
    if (!sources) return [];
    try {
      return await withTimeout(sources.jobQueue(), QUEUE_READ_MS);
    } catch {
      sourceErrors.inc();
      return [];
    }
  })().finally(() => {
    queueRead = undefined;
  });
  return queueRead;
}

new Gauge({
  name: 'provee_jobs',
  help: 'Jobs in the queue (all processes), by kind and state (waiting, active).',
  labelNames: ['kind', 'state'] as const,
  registers,
  async collect() {
    const rows = await queueRows();
    this.reset();
    for (const row of rows) this.set({ kind: row.kind, state: row.state }, row.count);
  },
});

new Gauge({
  name: 'provee_jobs_oldest_waiting_seconds',
  help: 'Age of the oldest job waiting to run, by kind.',
  labelNames: ['kind'] as const,
  registers,
  async collect() {
    const rows = await queueRows();
    this.reset();
    for (const row of rows) if (row.state === 'waiting') this.set({ kind: row.kind }, row.oldestSeconds);
  },
});

/** Statements sent and not answered yet, by engine: counted by db/observed-statements.ts, read at the scrape. */
export const statementsInFlight = { pglite: 0, postgres: 0 };

export const dbStatementsInFlight = new Gauge({
  name: 'provee_db_statements_in_flight',
  help: "Statements sent and not answered yet, by engine: above PostgreSQL's pool size, the rest wait for a connection.",
  labelNames: ['engine'] as const,
  registers,
  collect() {
    for (const [engine, count] of Object.entries(statementsInFlight)) this.set({ engine }, count);
  },
});

export const dbStatementDuration = new Histogram({
  name: 'provee_db_statement_duration_seconds',
  help: 'Time from a statement to its answer (a wait for a connection included), by engine and operation.',
  labelNames: ['engine', 'operation'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers,
});

/** PostgreSQL connections held or waited for: open transactions and statements outside one (db/observed-statements.ts). */
export const poolDemand = { postgres: 0 };

new Gauge({
  name: 'provee_db_pool_demand',
  help: "PostgreSQL connections this process holds or waits for: open transactions and statements outside one. Above the pool's size, the rest wait.",
  registers,
  collect() {
    this.set(poolDemand.postgres);
  },
});

export const dbPoolSize = new Gauge({
  name: 'provee_db_pool_connections_max',
  help: "The most connections this process opens to PostgreSQL (its pool's size).",
  registers,
});

new Gauge({
  name: 'provee_embedded_database_queue',
  help: "Queries waiting for the embedded database's thread (PGlite only).",
  registers,
  collect() {
    const waiting = sources?.embeddedQueue();
    if (waiting !== null && waiting !== undefined) this.set(waiting);
  },
});

/** The audit events that are business events, and the payload field that is their outcome. */
const BUSINESS_EVENTS: Record<string, { event: string; outcome?: string }> = {
  'user.registered': { event: 'application_started' },
  'phone.proven': { event: 'phone_proven' },
  'consent.given': { event: 'consent_given' },
  'decision.made': { event: 'decision', outcome: 'result' },
  'guarantor.consent_given': { event: 'guarantor_consented' },
  'contract.signed': { event: 'contract_signed', outcome: 'person_type' },
};

/** Counts an audit event if it is a business event (the caller counts it once committed). */
export function countBusinessEvent(type: string, payload: Record<string, unknown>): void {
  const business = BUSINESS_EVENTS[type];
  if (!business) return;
  const outcome = business.outcome ? payload[business.outcome] : undefined;
  businessEvents.inc({ event: business.event, outcome: typeof outcome === 'string' ? outcome : '' });
}

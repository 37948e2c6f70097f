import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';

/**
 * The product's own spans (decision 036): database statements, provider calls and job runs. Through
 * the OpenTelemetry API only: while tracing is off (no SDK started, observability/tracing.ts) there
 * is no current span and each helper just runs its work.
 */
const tracer = trace.getTracer('provee');

/** The span's failure as its kind only (never a message: a database error's can quote a value). */
export function markFailed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute('error.type', error instanceof Error ? error.name : 'Error');
}

/** Ends `span` when `work`'s answer settles (at once for a value that is not a promise). */
function endWhenSettled<T>(span: Span, work: () => T): T {
  let result: T;
  try {
    result = work();
  } catch (error) {
    markFailed(span, error);
    span.end();
    throw error;
  }
  if (!(result instanceof Promise)) {
    span.end();
    return result;
  }
  return result.then(
    (value: unknown) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      markFailed(span, error);
      span.end();
      throw error;
    },
  ) as T;
}

/**
 * Runs `work` as a child span of the current one, current while it runs (what it calls nests under
 * it). Outside a trace (tracing off, or a poll of the job queue's) it only runs `work`: no span
 * ever starts a trace of its own here.
 */
export function inChildSpan<T>(name: string, kind: SpanKind, attributes: Attributes, work: () => T): T {
  if (!trace.getActiveSpan()) return work();
  return tracer.startActiveSpan(name, { kind, attributes }, (span) => endWhenSettled(span, work));
}

/**
 * A child span of the current one that the caller starts and ends itself (a postgres.js statement
 * runs when it is awaited, not when it is made); none outside a trace, where its attributes are
 * not even made.
 */
export function startChildSpan(name: string, kind: SpanKind, attributes: () => Attributes): Span | null {
  const parent = context.active();
  if (!trace.getSpan(parent)) return null;
  return tracer.startSpan(name, { kind, attributes: attributes() }, parent);
}

/** Where a job's data keeps the trace that enqueued it (W3C trace context), taken out before it runs. */
export const TRACE_CONTEXT_KEY = '_trace';

/**
 * The current trace as its W3C `traceparent` to carry along with a job (undefined outside a trace);
 * never `tracestate`, text a caller may have written.
 */
export function currentTraceContext(): { traceparent: string } | undefined {
  if (!trace.getActiveSpan()) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? { traceparent: carrier.traceparent } : undefined;
}

/**
 * Runs a job as a span: a child of the trace that enqueued it when its data carried one, a trace of
 * its own otherwise (a scheduled job).
 */
export function inJobSpan<T>(kind: string, carried: unknown, work: () => Promise<T>): Promise<T> {
  const parent: Context =
    carried && typeof carried === 'object' ? propagation.extract(ROOT_CONTEXT, carried) : ROOT_CONTEXT;
  return tracer.startActiveSpan(
    `job ${kind}`,
    { kind: SpanKind.CONSUMER, attributes: { 'messaging.system': 'pg-boss', 'messaging.destination.name': kind } },
    parent,
    (span) => endWhenSettled(span, work),
  );
}

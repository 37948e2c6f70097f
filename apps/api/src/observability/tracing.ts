import { createRequire, syncBuiltinESMExports } from 'node:module';
import { context, type Attributes } from '@opentelemetry/api';
import type { FastifyPluginCallback } from 'fastify';
import fp from 'fastify-plugin';
import { maskUrl } from '../logger.js';

/** What the probes and the metrics answer: never traced (a scrape every few seconds is no one's request). */
const UNTRACED_PATHS = new Set(['/livez', '/readyz', '/metrics']);

export interface Tracing {
  /** Names each request's span by its route template (registered before the routes). */
  fastifyPlugin: FastifyPluginCallback;
  /** Sends the spans still buffered and stops (the graceful stop's last step). */
  shutdown(): Promise<void>;
}

/**
 * Traces are off unless the standard OpenTelemetry variables ask for them: an OTLP endpoint
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) or an exporter named in
 * OTEL_TRACES_EXPORTER; OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none keep them off.
 */
export function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = env.OTEL_TRACES_EXPORTER?.split(',').map((name) => name.trim().toLowerCase()) ?? [];
  if (exporters.includes('none')) return false;
  return exporters.some(Boolean) || Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** A URL's path, without its query or a trailing slash (/readyz/ is /readyz). */
function pathOf(url: string): string {
  const path = url.split('?')[0]!;
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/**
 * An incoming URL as spans keep it: as the logs write it (maskUrl: no phone in /home/8095551234, no
 * link token, no name or search text in a query).
 */
function incomingUrlAttributes(url: string): Attributes {
  const [path = '/', query] = url.split(/\?(.*)/s);
  return { 'url.path': maskUrl(path), ...(query ? { 'url.query': maskUrl(`?${query}`).slice(1) } : {}) };
}

/**
 * An outgoing URL as spans keep it: the address and path (masked), never the query (Google's key
 * and the address a person typed travel there).
 */
function outgoingUrlAttributes(origin: string, pathAndQuery: string): Attributes {
  const [path = '/', query] = pathAndQuery.split(/\?(.*)/s);
  const hidden = query ? '?[…]' : '';
  return { 'url.full': `${origin}${maskUrl(path)}${hidden}`, 'url.path': maskUrl(path), 'url.query': hidden };
}

/**
 * Starts OpenTelemetry's Node SDK (decision 036) when the environment asks for traces, before the
 * app is built: the exporter, sampler and resource come from the standard OTEL_* variables;
 * propagation is W3C trace context. Incoming requests by the HTTP instrumentation (its span is current when Fastify makes
 * the request id, which is then the trace id), named by its route; outgoing calls by the undici
 * (fetch) and HTTP instrumentations; statements, provider calls and job runs by observability/spans.
 * The SDK is loaded only then: a start without traces never reads it.
 */
export async function startTracing(env: NodeJS.ProcessEnv): Promise<Tracing | null> {
  if (!tracingWanted(env)) return null;
  // Traces only: the metrics are Prometheus's (/metrics) and the logs pino's.
  env.OTEL_METRICS_EXPORTER ??= 'none';
  env.OTEL_LOGS_EXPORTER ??= 'none';
  // HTTP spans with the stable conventions' attributes (url.path, url.query, url.full), the ones masked below.
  env.OTEL_SEMCONV_STABILITY_OPT_IN ??= 'http';
  const [
    { NodeSDK },
    { HttpInstrumentation },
    { UndiciInstrumentation },
    { W3CTraceContextPropagator, getRPCMetadata, RPCType },
  ] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-undici'),
    import('@opentelemetry/core'),
  ]);
  const named = /(^|,)\s*service\.name=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '') || Boolean(env.OTEL_SERVICE_NAME);
  const sdk = new NodeSDK({
    ...(named ? {} : { serviceName: 'provee-api' }),
    // W3C trace context only: no baggage, whose entries a caller writes, carried into jobs and to vendors.
    textMapPropagator: new W3CTraceContextPropagator(),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has(pathOf(request.url ?? '/')),
        startIncomingSpanHook: (request) => incomingUrlAttributes(request.url ?? '/'),
        startOutgoingSpanHook: (request) =>
          outgoingUrlAttributes(
            `${request.protocol ?? 'http:'}//${request.hostname ?? request.host ?? ''}${request.port ? `:${request.port}` : ''}`,
            request.path ?? '/',
          ),
      }),
      new UndiciInstrumentation({
        startSpanHook: (request) => outgoingUrlAttributes(request.origin, request.path),
      }),
    ],
  });
  sdk.start();
  // The HTTP instrumentation patches node:http when it is next required; Fastify (bundled around
  // this file) required it before the SDK started, and it is one module for all. The ESM bindings
  // (`import { request } from 'node:http'`, the webhook sends) follow the patched module once synced.
  createRequire(import.meta.url)('node:http');
  createRequire(import.meta.url)('node:https');
  syncBuiltinESMExports();
  return {
    // The request's span is the HTTP server's; Fastify knows its route (the span's name and
    // http.route). Not @fastify/otel: it writes an error's message into the span, and a database
    // error's message carries the statement's values.
    fastifyPlugin: fp(
      (app, _options, done) => {
        app.addHook('onRequest', (request, _reply, next) => {
          const metadata = getRPCMetadata(context.active());
          if (metadata?.type === RPCType.HTTP && request.routeOptions.url) metadata.route = request.routeOptions.url;
          next();
        });
        done();
      },
      { name: 'provee-trace-routes' },
    ),
    shutdown: () => sdk.shutdown(),
  };
}

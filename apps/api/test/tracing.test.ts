import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { expect, vi } from 'vitest';
import { toE164 } from '@provee/domain';
import { codeRequest, createPhone } from '../src/test/phone.js';
import { freePort, onEachDatabase, SERVER_JS, stopServer } from './built-server.js';

/**
 * Issue 32: with the standard OTEL_* variables the BUILT server sends its traces to an OTLP
 * receiver (here a local one taking OTLP/JSON, as a collector would): one request's span, its
 * database statements (their shape, never a value), the job it enqueued and that job's call to the
 * SMS provider (a Twilio stand-in over HTTP) form one tree; the request's log line carries the trace id.
 */
interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: OtlpValue }[];
}
const SPAN_KIND = { SERVER: 2, CLIENT: 3, CONSUMER: 5 } as const;

function attribute(span: ExportedSpan, key: string): string | undefined {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  return value === undefined ? undefined : String(value.stringValue ?? value.intValue ?? value.boolValue);
}

/** An OTLP/HTTP receiver (JSON): the spans it was sent, and the raw bodies (to look for values). */
async function otlpReceiver(): Promise<{ server: Server; url: string; spans: ExportedSpan[]; bodies: string[] }> {
  const spans: ExportedSpan[] = [];
  const bodies: string[] = [];
  const server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    if (request.method === 'POST' && request.url === '/v1/traces') {
      bodies.push(body);
      const sent = JSON.parse(body) as {
        resourceSpans: { scopeSpans: { spans: ExportedSpan[] }[] }[];
      };
      for (const resource of sent.resourceSpans)
        for (const scope of resource.scopeSpans) spans.push(...scope.spans.map((span) => ({ ...span })));
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, spans, bodies };
}

/** Twilio's Messages API: accepts every message. */
async function twilioStandIn(): Promise<{ server: Server; url: string; messages: string[] }> {
  const messages: string[] = [];
  const server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    messages.push(new URLSearchParams(body).get('To') ?? '');
    response
      .writeHead(201, { 'content-type': 'application/json' })
      .end(JSON.stringify({ sid: `SM${randomUUID().replaceAll('-', '')}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, messages };
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

onEachDatabase('a request, its statements, its job and the provider call are one trace', async (databaseEnv) => {
  const receiver = await otlpReceiver();
  const twilio = await twilioStandIn();
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, [SERVER_JS], {
    env: {
      PATH: process.env.PATH,
      ...databaseEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_SECRET: 'tracing-test-secret-tracing-test-secret',
      SMS_PROVIDER: 'twilio',
      TWILIO_API_URL: twilio.url,
      TWILIO_ACCOUNT_SID: 'AC999',
      TWILIO_AUTH_TOKEN: 'tok',
      TWILIO_FROM: '+18095550000',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'provee-tracing-test',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  try {
    await vi.waitFor(async () => expect((await fetch(`${url}/readyz`)).status).toBe(200), {
      timeout: 60_000,
      interval: 200,
    });

    const phone = createPhone();
    const { payload } = codeRequest(phone);
    const answer = await fetch(`${url}/api/v1/users/code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(twilio.messages).toEqual([toE164('do', phone)]);

    // The request's root span (the HTTP server's) and everything of its trace.
    const root = await vi.waitFor(
      () => {
        const found = receiver.spans.find(
          (span) => span.kind === SPAN_KIND.SERVER && attribute(span, 'http.route') === '/api/v1/users/code',
        );
        expect(found).toBeDefined();
        const trace = receiver.spans.filter((span) => span.traceId === found!.traceId);
        expect(trace.map((span) => span.name)).toContain('job message-send');
        expect(
          trace.filter((span) => span.kind === SPAN_KIND.CLIENT && attribute(span, 'url.full')?.startsWith(twilio.url)),
        ).toHaveLength(1);
        return found!;
      },
      { timeout: 15_000, interval: 100 },
    );
    const trace = receiver.spans.filter((span) => span.traceId === root.traceId);
    const byId = new Map(trace.map((span) => [span.spanId, span]));
    const parentOf = (span: ExportedSpan) => (span.parentSpanId ? byId.get(span.parentSpanId) : undefined);
    const ancestors = (span: ExportedSpan) => {
      const names: string[] = [];
      for (let at = parentOf(span); at; at = parentOf(at)) names.push(at.name);
      return names;
    };

    // One tree: a single root, every other span's parent is in the trace.
    expect(trace.filter((span) => !span.parentSpanId)).toEqual([root]);
    for (const span of trace) if (span !== root) expect(byId.has(span.parentSpanId!), span.name).toBe(true);
    // The request's span is named by its route; the job is under the request that enqueued it, the
    // provider call under the job, and Twilio's HTTP request under the provider call.
    expect(root.name).toBe('POST /api/v1/users/code');
    const job = trace.find((span) => span.name === 'job message-send')!;
    expect(job.kind).toBe(SPAN_KIND.CONSUMER);
    expect(ancestors(job)).toContain(root.name);
    const providerCall = trace.find((span) => span.name === 'sms send')!;
    expect(parentOf(providerCall)).toBe(job);
    const http = trace.find((span) => attribute(span, 'url.full')?.startsWith(twilio.url))!;
    expect(parentOf(http)).toBe(providerCall);

    // The request's statements and the job's: PostgreSQL spans with the statement's shape.
    const statements = trace.filter((span) => attribute(span, 'db.system.name') === 'postgresql');
    expect(statements.filter((span) => parentOf(span) === root).length).toBeGreaterThan(0);
    expect(statements.filter((span) => ancestors(span).includes(job.name)).length).toBeGreaterThan(0);
    expect(statements.some((span) => /\$1\b/.test(attribute(span, 'db.query.text') ?? ''))).toBe(true);
    expect(new Set(statements.map((span) => attribute(span, 'provee.db.engine')))).toEqual(
      new Set([databaseEnv.DATABASE_URL ? 'postgres' : 'pglite']),
    );

    // The request's log line: its request id is the trace id.
    const line = output
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text) as { msg?: string; reqId?: string; req?: { url?: string } })
      .find((entry) => entry.msg === 'request completed' && entry.req?.url === '/api/v1/users/code');
    expect(line?.reqId).toBe(root.traceId);

    // A caller's trace (W3C traceparent) is continued, not replaced.
    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    await fetch(`${url}/api/config`, { headers: { traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` } });
    await vi.waitFor(
      () =>
        expect(
          receiver.spans.some((span) => span.traceId === callerTrace && span.parentSpanId === '00f067aa0ba902b7'),
        ).toBe(true),
      { timeout: 10_000, interval: 100 },
    );

    // A page whose path holds the phone, with a link's token: spans keep the URL as the logs do.
    expect((await fetch(`${url}/home/${phone}?token=link-token-never-kept`)).status).toBe(200);
    await vi.waitFor(
      () => expect(receiver.spans.some((span) => attribute(span, 'url.path') === '/home/[…]')).toBe(true),
      { timeout: 10_000, interval: 100 },
    );
    // Never a value: the phone (as typed or as sent) or the token appears in no exported span.
    for (const body of receiver.bodies) {
      expect(body).not.toContain(phone);
      expect(body).not.toContain(toE164('do', phone).slice(1));
      expect(body).not.toContain('link-token-never-kept');
    }

    // The probes are no one's request: no spans.
    expect(receiver.spans.some((span) => attribute(span, 'url.path') === '/readyz')).toBe(false);
  } finally {
    await stopServer(child, 'SIGTERM');
    await close(receiver.server);
    await close(twilio.server);
  }
});

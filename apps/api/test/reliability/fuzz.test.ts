import { GENERIC_ERROR_MESSAGE, VALIDATION_ERROR_MESSAGE } from '@provee/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '../../src/test/factories.js';
import { createTestApp, type TestApp } from '../../src/test/test-app.js';
import { answerProblems, spanishProblem } from './fuzz/checks.js';
import { watchDatabase } from './fuzz/database-watch.js';
import { FIXTURES, HIDDEN_OPERATIONS, type Fixture } from './fuzz/fixtures.js';
import { documentedOperations, registeredRoutes, routeShape, type Operation } from './fuzz/operations.js';
import { emptyFigures, fuzzOperation, WRITES_ON_REFUSAL, type Finding } from './fuzz/runner.js';
import { World } from './fuzz/world.js';

/**
 * Issue 13, suite 2: input fuzzing. Every operation of the product (the OpenAPI document, plus the
 * routes it hides, read from Fastify's route tree so none escapes) gets its owner's request with
 * valid credentials, then requests derived from it by fast-check and the operation's schema:
 * wrong types, missing and extra fields, long and unicode strings, huge numbers, malformed JSON,
 * wrong content types, bodies over the limit, path parameters with traversal and SQL. Every answer
 * must be below 500, every refusal the envelope with a Spanish readable_message, and a refusal
 * must leave every table as it was.
 *
 * FUZZ_RUNS: random requests per operation (on top of ~40 fixed ones); FUZZ_SEED replays a run.
 * `npm run fuzz -- --runs N` runs it on both databases with more.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 16);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

describe('the Spanish check', () => {
  it('accepts the catalogue’s messages and refuses English, empty or envelope-less answers', () => {
    for (const message of [
      VALIDATION_ERROR_MESSAGE,
      GENERIC_ERROR_MESSAGE,
      'No encontramos lo que buscas.',
      'Firma inválida.',
      'La solicitud no es válida.',
      '* No uses emojis ni caracteres especiales.',
      '* Selecciona su estado civil !',
      'Tu cuenta está bloqueada por demasiados intentos. Intenta de nuevo después de las 14:05 (UTC).',
    ])
      expect(spanishProblem(message), message).toBeNull();
    for (const message of [
      'Bad Request',
      'body must be object',
      'Route GET:/x not found',
      'Unsupported Media Type: text/plain',
      'Request body is too large',
      'Invalid input: expected string, received number',
      'unauthenticated',
      '',
      'Internal Server Error',
    ])
      expect(spanishProblem(message), message).not.toBeNull();
    expect(spanishProblem('Entrada inválida: se esperaba texto, recibido número', { sentence: false })).toBeNull();
    expect(spanishProblem('Invalid input: expected string, received number', { sentence: false })).not.toBeNull();
    const json = { 'content-type': 'application/json; charset=utf-8' };
    const fastifyDefault = { statusCode: 400, error: 'Bad Request', message: 'body must be object' };
    expect(answerProblems({ statusCode: 400, body: JSON.stringify(fastifyDefault), headers: json })).toMatchObject([
      { finding: 'no envelope' },
    ]);
    const english = { code: 'X', message: 'x', readable_message: 'Unsupported Media Type' };
    expect(answerProblems({ statusCode: 415, body: JSON.stringify(english), headers: json })).toMatchObject([
      { finding: 'not Spanish' },
    ]);
    expect(answerProblems({ statusCode: 502, body: '{}', headers: json })).toMatchObject([{ finding: '5xx' }]);
  });
});

describe('input fuzzing: every operation answers below 500, refuses with the Spanish envelope and writes nothing', () => {
  let t: TestApp;
  let vendor: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      // The per-process flood guard would answer 429 before validation; the API's own limits stay.
      RATE_LIMIT_PER_MINUTE: '100000000',
      // One partner key makes every partner call of the run.
      PARTNER_RATE_PER_MINUTE: '100000',
      // The consent and guarantor PINs come back in the answer: the owner's request needs them.
      NIP_PREFILL: 'true',
      IDENTITY_SIMULATOR_DELAY_MS: '0',
      // The jobs a control's change enqueued (the signed copy) wait: their writes would otherwise
      // land during a later refused request and read as its own (the bureau's worker is off too).
      JOB_POLL_INTERVAL_MS: '0',
      LOG_LEVEL: 'error',
    });
    // The vendors' webhooks as production configures them (MetaMap, Twilio), on the same database.
    vendor = await createTestApp(
      {
        RATE_LIMIT_PER_MINUTE: '100000000',
        JOB_POLL_INTERVAL_MS: '0',
        LOG_LEVEL: 'error',
        IDENTITY_PROVIDER: 'metamap',
        METAMAP_CLIENT_ID: 'fuzz-client',
        METAMAP_FLOW_ID: 'fuzz-flow',
        METAMAP_REVERIFICATION_FLOW_ID: 'fuzz-reflow',
        METAMAP_WEBHOOK_SECRET: 'fuzz-metamap-webhook-secret',
        REVERSE_OTP_PROVIDER: 'twilio',
        TWILIO_AUTH_TOKEN: 'fuzz-twilio-auth-token',
        PUBLIC_BASE_URL: 'https://provee.example',
        REVERSE_OTP_DESTINATION: '+18095550111',
      },
      undefined,
      { database: t.database },
    );
  });
  afterAll(async () => {
    await vendor?.close();
    await t?.close();
  });

  it('fuzzes every route of the product', { timeout: 3_600_000 }, async () => {
    const started = performance.now();
    // The operations: documented, and hidden ones the suite describes; nothing else may exist.
    const documented = documentedOperations(t.app.swagger());
    const hidden: Operation[] = HIDDEN_OPERATIONS.map((operation) => ({
      id: `${operation.method} ${operation.path}`,
      method: operation.method,
      path: operation.path,
      pathParams: [],
      query: operation.query ?? [],
      ...(operation.body ? { body: operation.body } : {}),
      multipart: false,
      hidden: true,
    }));
    const operations = [...documented, ...hidden];
    const known = new Set(operations.map((op) => `${op.method} ${routeShape(op.path)}`));
    const registered = registeredRoutes(t.app).map((route) => `${route.method} ${route.shape}`);
    const undescribed = registered.filter((route) => !known.has(route));
    expect(undescribed, 'routes neither in the OpenAPI document nor in HIDDEN_OPERATIONS: describe them').toEqual([]);
    const unregistered = [...known].filter((route) => !registered.includes(route));
    expect(unregistered, 'the route tree was not read right').toEqual([]);
    const withoutFixture = operations.filter((op) => !FIXTURES[op.id]).map((op) => op.id);
    expect(withoutFixture, 'operations without a request of their owner in fuzz/fixtures.ts: add one').toEqual([]);
    const stale = Object.keys(FIXTURES).filter((id) => !operations.some((op) => op.id === id));
    expect(stale, 'fixtures of operations that no longer exist').toEqual([]);

    const watch = await watchDatabase(t.app.db);
    // The watch sees a write (a reported client error is stored), or the checks below prove nothing.
    const reported = await t.app.inject({
      method: 'POST',
      url: '/api/v1/client-errors',
      payload: { level: 'warning', method: 'GET', path: '/api/v1/config', status: 0 },
    });
    expect(reported.statusCode).toBe(204);
    expect(await watch.changed()).toEqual(['client_errors']);
    expect(await watch.changed()).toEqual([]);
    const world = new World(t.app);
    const figures = emptyFigures();
    const findings: Finding[] = [];
    const logged = new Map<unknown[], number>();
    const errorsSince = () => {
      const fresh = [t.logs, vendor.logs].flatMap((logs) => {
        const lines = logs.slice(logged.get(logs) ?? 0);
        logged.set(logs, logs.length);
        return lines.filter((line) => Number(line.level) >= 50);
      });
      return fresh.map((line) => {
        const err = line.err as { type?: string; message?: string } | undefined;
        return `${String(line.msg)}${err ? `: ${err.type ?? ''} ${err.message ?? ''}` : ''}`;
      });
    };
    let index = 0;
    // FUZZ_ONLY=<part of an operation id> replays one operation (the coverage checks above still ran).
    const only = process.env.FUZZ_ONLY;
    for (const op of operations.filter((operation) => !only || operation.id.includes(only))) {
      const fixtures: Fixture[] = [FIXTURES[op.id]!].flat();
      figures.operations += 1;
      for (const fixture of fixtures) {
        figures.variants += 1;
        await fuzzOperation(op, fixture, (index += 1), {
          runs: RUNS,
          seed: SEED,
          bodyLimit: t.app.config.BODY_LIMIT_BYTES,
          fileBytes: MAX_IMAGE_BYTES,
          world,
          vendor: vendor.app,
          watch,
          figures,
          findings,
          errorsSince,
        });
      }
    }
    // Every table digested again: a change the write counters did not see would show here.
    const missed = await watch.verifyAll();

    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const by = (problem: string) => findings.filter((finding) => finding.problem.startsWith(problem)).length;
    const histogram = [...figures.statuses.entries()].sort(([a], [b]) => a - b);
    const kinds = [...figures.kinds.entries()].sort(([, a], [, b]) => b - a);
    console.log(
      [
        `input fuzzing on ${t.database.kind} (FUZZ_RUNS=${RUNS}, FUZZ_SEED=${SEED}), ${seconds} s: answering ${Math.round(figures.ms.inject / 1000)} s, watching the database ${Math.round(figures.ms.watch / 1000)} s, preparing ${Math.round(figures.ms.prepare / 1000)} s`,
        `  operations covered   ${figures.operations} (${documented.length} documented + ${hidden.length} hidden; ${figures.variants} runs with the webhook's two vendors)`,
        `  requests sent        ${figures.requests} (controls passed: ${figures.controls}/${figures.variants})`,
        `  status histogram     ${histogram.map(([status, n]) => `${status}×${n}`).join('  ')}`,
        `  cases                ${kinds.map(([kind, n]) => `${kind} ${n}`).join(', ')}`,
        `  5xx                  ${figures.fiveHundreds}`,
        `  without envelope     ${figures.withoutEnvelope}`,
        `  not Spanish          ${figures.notSpanish}`,
        `  database changed     ${figures.databaseChanged} on refusal; ${missed.length} tables changed unseen`,
        `  unexpected status    ${figures.unexpectedStatus} (413 over the body limit, 414 over 100 characters)`,
        `  controls refused     ${by('control')}`,
        `  writes allowed on refusal: ${WRITES_ON_REFUSAL.map((rule) => `${rule.code.source} → ${rule.tables.join('/')}`).join('; ')}`,
        `  slowest operations   ${[...figures.slowest]
          .sort((a, b) => b.ms - a.ms)
          .slice(0, Number(process.env.FUZZ_SLOWEST ?? 5))
          .map((s) => `${s.operation} ${s.ms} ms, ${s.requests} requests, ${s.prepares} bases in ${s.prepareMs} ms`)
          .join('\n                       ')}`,
      ].join('\n'),
    );
    // FUZZ_TABLE=1 (npm run fuzz): one line per operation.
    if (process.env.FUZZ_TABLE)
      console.log(
        [
          'operation'.padEnd(92) + 'requests    2xx    4xx    5xx  bases       ms',
          ...figures.slowest.map(
            (s) =>
              s.operation.slice(0, 90).padEnd(92) +
              [s.requests, s.classes['2xx'] + s.classes['3xx'], s.classes['4xx'], s.classes['5xx'], s.prepares, s.ms]
                .map((n, i) => String(n).padStart(i === 0 ? 8 : 7))
                .join(''),
          ),
        ].join('\n'),
      );
    if (process.env.FUZZ_DEBUG)
      for (const status of process.env.FUZZ_DEBUG.split(',').map(Number))
        console.log(`${status}:\n  ${(figures.seen.get(status) ?? []).slice(0, 60).join('\n  ')}`);
    const shown = findings
      .slice(0, 40)
      .map((f) => `${f.operation} [${f.label}] ${f.status} ${f.problem}: ${f.detail}\n      ${f.request}`);
    expect(missed, 'tables changed without a counted write').toEqual([]);
    expect(shown, `${findings.length} findings (replay with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS})`).toEqual([]);
    expect(figures.controls).toBe(figures.variants);
  });
});

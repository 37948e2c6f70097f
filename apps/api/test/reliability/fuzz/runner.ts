import fc from 'fast-check';
import type { App } from '../../../src/types.js';
import { answerProblems } from './checks.js';
import type { DatabaseWatch } from './database-watch.js';
import type { Base, Fixture } from './fixtures.js';
import type { Operation } from './operations.js';
import {
  encodeMultipart,
  fixedMutations,
  formOf,
  multipartArbitrary,
  multipartMutations,
  mutationArbitrary,
  serialize,
  type CaseKind,
  type Mutation,
  type RequestSpec,
} from './requests.js';
import type { World } from './world.js';

/**
 * Refusals that write by design, each with its reason: the tables they may change. Any other
 * refusal (a 4xx) must leave every table as it was.
 */
export const WRITES_ON_REFUSAL: { code: RegExp; tables: string[]; why: string }[] = [
  {
    code: /^(NOT_ELIGIBLE.*|TAX_ID_IN_USE|OUT_OF_SERVICE_AREA)$/,
    tables: ['users', 'businesses', 'audit_events'],
    why: 'a credit-policy refusal (age, business, a tax id already registered, the served area) is a decision: recorded as policy.refused, and a refused business is final (REJECTED)',
  },
  {
    code: /^CODE_INVALID$/,
    tables: ['phone_codes'],
    why: 'a wrong code or PIN counts as a try before it is compared (CODE_MAX_ATTEMPTS, abuse suite)',
  },
  {
    code: /^(INVALID_LOGIN|LOGIN_LOCKED|INVALID_FACTOR)$/,
    tables: ['staff_login_failures', 'audit_events'],
    why: 'a failed staff login or second factor is counted before the secret is read (lock-out, per e-mail, address and account) and recorded in the staff member’s chain',
  },
  {
    code: /^GUARANTOR_PHONE_REFUSED$/,
    tables: ['audit_events'],
    why: 'every guarantor number tried counts towards the application’s daily budget (guarantor.phone_tried), refused or not',
  },
  {
    code: /^(PASSKEY_NOT_REGISTERED|INVALID_FACTOR)$/,
    tables: ['staff_sessions'],
    why: 'a WebAuthn challenge kept on the session is used once, whether the answer was right or not',
  },
];

export interface Finding {
  operation: string;
  kind: CaseKind;
  /** What the case changed in the owner's request. */
  label: string;
  request: string;
  status: number;
  problem: string;
  detail: string;
}

export interface Figures {
  operations: number;
  variants: number;
  requests: number;
  controls: number;
  statuses: Map<number, number>;
  kinds: Map<CaseKind, number>;
  fiveHundreds: number;
  withoutEnvelope: number;
  notSpanish: number;
  databaseChanged: number;
  unexpectedStatus: number;
  /** Per operation (and vendor variant): time, requests, bases prepared, answers by class. */
  slowest: {
    operation: string;
    ms: number;
    requests: number;
    prepares: number;
    prepareMs: number;
    classes: Record<'2xx' | '3xx' | '4xx' | '5xx', number>;
  }[];
  /** Where the time went: answering, watching the database, preparing bases. */
  ms: { inject: number; watch: number; prepare: number };
  /** Status → the operations and cases that got it (FUZZ_DEBUG prints the rare ones). */
  seen: Map<number, string[]>;
}

export function emptyFigures(): Figures {
  return {
    operations: 0,
    variants: 0,
    requests: 0,
    controls: 0,
    statuses: new Map(),
    kinds: new Map(),
    fiveHundreds: 0,
    withoutEnvelope: 0,
    notSpanish: 0,
    databaseChanged: 0,
    unexpectedStatus: 0,
    slowest: [],
    seen: new Map(),
    ms: { inject: 0, watch: 0, prepare: 0 },
  };
}

const increment = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

/** The base request as a spec every mutation starts from. */
export function baseSpec(op: Operation, base: Base): RequestSpec {
  const params = Object.fromEntries(
    op.pathParams.map((parameter) => [parameter.name, encodeURIComponent(base.params?.[parameter.name] ?? '')]),
  );
  return {
    params,
    query: Object.entries(base.query ?? {}),
    body: base.multipart
      ? { kind: 'multipart', value: base.multipart }
      : base.raw
        ? { kind: 'raw', payload: base.raw.payload, contentType: base.raw.contentType }
        : base.body === undefined
          ? { kind: 'none' }
          : { kind: 'json', value: base.body, ...(base.form ? { form: true } : {}) },
    headers: { ...base.headers },
  };
}

interface Wire {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: Buffer;
}

export function toWire(op: Operation, base: Base, spec: RequestSpec): Wire {
  let path = op.path;
  for (const [name, value] of Object.entries(spec.params)) path = path.replace(`{${name}}`, value);
  const query = Array.isArray(spec.query) ? new URLSearchParams(spec.query).toString() : spec.query.raw;
  const url = query ? `${path}?${query}` : path;
  const headers: Record<string, string> = { ...spec.headers };
  let payload: Buffer | undefined;
  const body = spec.body;
  if (body.kind === 'json') {
    if (body.form) {
      payload = Buffer.from(formOf(spec));
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else {
      payload = Buffer.from(serialize(body.value));
      headers['content-type'] = 'application/json';
    }
  } else if (body.kind === 'raw') {
    payload = Buffer.isBuffer(body.payload) ? body.payload : Buffer.from(body.payload);
    if (body.contentType !== null) headers['content-type'] = body.contentType;
  } else if (body.kind === 'multipart') {
    const encoded = encodeMultipart(body.value);
    payload = encoded.payload;
    headers['content-type'] = encoded.contentType;
  }
  // A webhook's vendor signs exactly the bytes sent, so a mutated body still gets past the signature.
  if (base.sign) {
    const signed = base.sign(payload ?? Buffer.alloc(0), url);
    Object.assign(headers, spec.signature ? spec.signature(signed) : signed);
  }
  return { method: spec.method ?? op.method, url, headers, ...(payload ? { payload } : {}) };
}

const describeWire = (wire: Wire) => {
  const body = wire.payload ? wire.payload.subarray(0, 160).toString('utf8') : '';
  const more = wire.payload && wire.payload.length > 160 ? `… (${wire.payload.length} bytes)` : '';
  return `${wire.method} ${wire.url.slice(0, 200)}${wire.url.length > 200 ? '…' : ''} [${wire.headers['content-type'] ?? 'no content type'}] ${body}${more}`;
};

export interface RunOptions {
  runs: number;
  seed: number;
  bodyLimit: number;
  fileBytes: number;
  world: World;
  vendor: App;
  watch: DatabaseWatch;
  figures: Figures;
  findings: Finding[];
  /** Error log lines of the app since the last call (the cause of a 5xx). */
  errorsSince: () => string[];
}

/** Sends the control and the fuzzed requests of one operation (one fixture), checking every answer. */
export async function fuzzOperation(op: Operation, fixture: Fixture, index: number, options: RunOptions) {
  const { world, watch, figures, findings } = options;
  const name = fixture.variant ? `${op.id} (${fixture.variant})` : op.id;
  const started = performance.now();
  let requests = 0;
  const classes = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
  let prepares = 0;
  let prepareMs = 0;
  const prepare = async () => {
    const at = performance.now();
    prepares += 1;
    const base = await fixture.prepare(world, { vendor: options.vendor });
    prepareMs += performance.now() - at;
    figures.ms.prepare += performance.now() - at;
    await watch.changed(); // what the preparation wrote is not the requests' doing
    options.errorsSince();
    return base;
  };
  const send = async (base: Base, spec: RequestSpec, kind: CaseKind, label: string, expectStatus?: number) => {
    const wire = toWire(op, base, spec);
    const app = base.app ?? world.app;
    const sentAt = performance.now();
    const response = await app.inject({
      method: wire.method as 'GET',
      url: wire.url,
      headers: wire.headers,
      remoteAddress: world.nextIp(),
      ...(wire.payload ? { payload: wire.payload } : {}),
    });
    requests += 1;
    classes[`${Math.min(5, Math.floor(response.statusCode / 100))}xx` as keyof typeof classes] += 1;
    figures.requests += 1;
    increment(figures.statuses, response.statusCode);
    increment(figures.kinds, kind);
    figures.seen.set(response.statusCode, [
      ...(figures.seen.get(response.statusCode) ?? []),
      `${name} [${kind}] ${response.body.slice(0, 120)}`,
    ]);
    const answeredAt = performance.now();
    const changed = await watch.changed();
    figures.ms.inject += answeredAt - sentAt;
    figures.ms.watch += performance.now() - answeredAt;
    const report = (problem: string, detail: string) =>
      findings.push({
        operation: name,
        kind,
        label,
        request: describeWire(wire),
        status: response.statusCode,
        problem,
        detail,
      });
    for (const problem of answerProblems(response)) {
      if (problem.finding === '5xx') figures.fiveHundreds += 1;
      if (problem.finding === 'no envelope') figures.withoutEnvelope += 1;
      if (problem.finding === 'not Spanish') figures.notSpanish += 1;
      const cause = problem.finding === '5xx' ? options.errorsSince().join(' | ').slice(0, 400) : '';
      report(problem.finding, `${problem.detail}${cause ? ` — log: ${cause}` : ''}`);
    }
    if (expectStatus !== undefined && response.statusCode !== expectStatus) {
      figures.unexpectedStatus += 1;
      report(`expected ${expectStatus}`, response.body.slice(0, 200));
    }
    if (response.statusCode >= 400 && changed.length > 0) {
      let code = '';
      try {
        code = String((JSON.parse(response.body) as { code?: unknown }).code ?? '');
      } catch {
        // no envelope: reported above
      }
      const allowed = WRITES_ON_REFUSAL.filter((rule) => rule.code.test(code)).flatMap((rule) => rule.tables);
      const unexpected = changed.filter((table) => !allowed.includes(table));
      if (unexpected.length > 0) {
        figures.databaseChanged += 1;
        report('database changed on refusal', `${code}: ${unexpected.join(', ')}`);
      }
    }
    return { response, changed };
  };

  let base = await prepare();
  // The control: the owner's own request gets in (or reaches the handler's own refusal).
  const control = await send(base, baseSpec(op, base), 'control', 'the owner’s request');
  const expected = fixture.control;
  const code = (() => {
    try {
      return String((control.response.json() as { code?: unknown }).code ?? '');
    } catch {
      return '';
    }
  })();
  const controlOk = expected
    ? control.response.statusCode === expected.status && code === expected.code
    : control.response.statusCode >= 200 && control.response.statusCode < 300;
  if (controlOk) figures.controls += 1;
  else
    findings.push({
      operation: name,
      kind: 'control',
      label: 'the owner’s request',
      request: describeWire(toWire(op, base, baseSpec(op, base))),
      status: control.response.statusCode,
      problem: 'control refused',
      detail: `expected ${expected ? `${expected.status} ${expected.code}` : '2xx'}: ${control.response.body.slice(0, 300)}`,
    });
  const bodyLimit = fixture.bodyLimit ?? options.bodyLimit;
  const listed = base.multipart
    ? [
        ...multipartMutations(base.multipart, { fileBytes: options.fileBytes, bodyLimit }).map((m) => ({
          ...m,
          core: true,
        })),
        ...fixedMutations(op, { bodyLimit }).filter((m) => m.kind === 'path parameter' || m.kind === 'query'),
      ]
    : fixedMutations(op, { bodyLimit });
  // Every run sends the core cases; the other listed ones join the draw of the random ones.
  const fixed = listed.filter((mutation) => mutation.core);
  const pool = listed.filter((mutation) => !mutation.core);
  const derived = base.multipart
    ? fc.oneof(multipartArbitrary(), mutationArbitrary(op, undefined))
    : mutationArbitrary(op, base.body);
  const arbitrary =
    pool.length > 0
      ? fc.oneof({ arbitrary: derived, weight: 3 }, { arbitrary: fc.constantFrom(...pool), weight: 2 })
      : derived;
  const random: Mutation[] =
    options.runs > 0 ? fc.sample(arbitrary, { numRuns: options.runs, seed: options.seed + index }) : [];

  // The fixed cases attack the framework's layer (JSON parser, content types, body limit, path and
  // query parsing), which runs before any state is read: one base serves them all, unless a success
  // spends the caller's credentials. The random cases attack the fields, which the handlers check
  // against the application's state: a fresh base after any request that changed something.
  const run = async (mutations: Mutation[], refresh: boolean) => {
    let stale = false;
    let served = 0;
    for (const mutation of mutations) {
      if (refresh && fixture.refreshEvery && served >= fixture.refreshEvery) stale = true;
      if (stale) {
        base = await prepare();
        stale = false;
        served = 0;
      }
      served += 1;
      let sent;
      try {
        sent = await send(
          base,
          mutation.apply(baseSpec(op, base)),
          mutation.kind,
          mutation.label,
          mutation.expectStatus,
        );
      } catch (error) {
        findings.push({
          operation: name,
          kind: mutation.kind,
          label: mutation.label,
          request: '',
          status: 0,
          problem: 'request not sent',
          detail: String(error).slice(0, 300),
        });
        continue;
      }
      const changedState = sent.changed.length > 0 || sent.response.statusCode < 300;
      if (refresh && changedState && !fixture.reusable) stale = true;
    }
  };
  const changedByControl = control.changed.length > 0 || control.response.statusCode < 300;
  if (changedByControl && fixture.spendsCredentials) base = await prepare();
  await run(fixed, fixture.spendsCredentials === true);
  if (random.length > 0) {
    if (!fixture.reusable) base = await prepare();
    await run(random, true);
  }
  figures.slowest.push({
    operation: name,
    ms: Math.round(performance.now() - started),
    requests,
    prepares,
    prepareMs: Math.round(prepareMs),
    classes,
  });
}

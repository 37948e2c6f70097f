import fc from 'fast-check';
import type { JsonSchema, Operation } from './operations.js';

/**
 * Requests derived from an operation's schema and one request its owner would send (the base):
 * each case changes the base in one or a few ways, so the rest of the request still gets past
 * authentication and the fields around the one under attack.
 */

/**
 * JSON written as it is: a number JSON.stringify cannot produce (1e400, 30 digits), or a nesting
 * too deep for JSON.stringify's recursion (20,000 levels).
 */
export class RawJson {
  constructor(readonly text: string) {}
}

export interface MultipartBody {
  files: { name: string; filename: string; contentType: string; bytes: Uint8Array }[];
  fields: [string, string][];
  /** A boundary different from the one in the header, or no closing line. */
  broken?: 'boundary' | 'truncated';
}

export type Body =
  | { kind: 'none' }
  /** A JSON body, or (form) the same fields sent as application/x-www-form-urlencoded. */
  | { kind: 'json'; value: unknown; form?: boolean }
  | { kind: 'raw'; payload: string | Buffer; contentType: string | null }
  | { kind: 'multipart'; value: MultipartBody };

export interface RequestSpec {
  /** Another method on the same path (the route tree answers). */
  method?: string;
  /** Each path parameter as it is written in the URL (already encoded). */
  params: Record<string, string>;
  /** Query pairs (encoded when sent), or the query string as it is written. */
  query: [string, string][] | { raw: string };
  body: Body;
  /** The caller's headers (credentials), changed by the 'credentials' cases. */
  headers: Record<string, string>;
  /** A webhook's signature headers changed after signing. */
  signature?: (headers: Record<string, string>) => Record<string, string>;
}

export type CaseKind =
  | 'control'
  | 'missing field'
  | 'wrong type'
  | 'extra field'
  | 'overlong string'
  | 'unicode'
  | 'huge number'
  | 'enum'
  | 'root type'
  | 'deep nesting'
  | 'malformed JSON'
  | 'content type'
  | 'huge body'
  | 'query'
  | 'path parameter'
  | 'multipart'
  | 'credentials'
  | 'method';

export interface Mutation {
  kind: CaseKind;
  label: string;
  apply(spec: RequestSpec): RequestSpec;
  /** The status this case must get (e.g. 413 for a body over the limit). */
  expectStatus?: number;
  /** Sent to every operation on every run; the others join the random draw. */
  core?: boolean;
}

// ---- values ----------------------------------------------------------------------------------

const SPECIAL_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\u202eRTL\u202c',
  '\u200f\u05e9\u05dc\u05d5\u05dd',
  'zero\u200bwidth',
  '\ufeffBOM',
  '😀',
  '👨‍👩‍👧‍👦',
  '\ud800',
  'x\udfffy',
  '\udbff\udfff',
  'e\u0301\u0301\u0301',
  'ＡＢＣ１２３',
  '١٢٣٤٥٦٧٨٩٠',
  '𝟘𝟙𝟚𝟛',
  'line\u2028sep',
  '\r\n',
  '\t',
  '\\',
  '"',
  "'",
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '%s%n%x',
  '../../etc/passwd',
  "' OR 1=1 --",
  '; drop table users; --',
  '" OR ""="',
  '$where',
  '',
  ' ',
  'null',
  'undefined',
  'NaN',
  '-0',
  '0x1F',
  '1e308',
  'İstanbul ß ǅ',
];

/** Half a surrogate pair alone: not text, and the JSON escape some databases refuse. */
const loneSurrogate = fc
  .tuple(fc.integer({ min: 0xd800, max: 0xdfff }), fc.string({ unit: 'grapheme-ascii', maxLength: 6 }))
  .map(([unit, around]) => `${around}${String.fromCharCode(unit)}${around}`);

const unicodeString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...SPECIAL_STRINGS), weight: 3 },
  { arbitrary: loneSurrogate, weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }), weight: 1 },
  {
    arbitrary: fc
      .tuple(fc.string({ unit: 'grapheme-ascii', maxLength: 8 }), fc.constantFrom(...SPECIAL_STRINGS))
      .map(([around, special]) => `${around}${special}${around}`),
    weight: 2,
  },
);

/**
 * Long strings: exactly the schema's maximum (which passes it: does the column hold it?), just
 * over it, and 100,000 characters of several kinds.
 */
function overlongString(schema: JsonSchema | undefined): fc.Arbitrary<string> {
  const choices: fc.Arbitrary<string>[] = [
    fc.constantFrom('x', 'ñ', '😀', '\u0301', '9').map((unit) => unit.repeat(100_000)),
    fc.constant('a'.repeat(10_000)),
  ];
  const max = schema?.maxLength;
  if (max !== undefined && max < 2_000_000)
    choices.push(
      fc.constantFrom('x', '😀', '9').map((unit) => unit.repeat(max + 1)),
      fc.constantFrom('x', 'ñ', '9').map((unit) => unit.repeat(max)),
      fc.constant('😀'.repeat(Math.floor(max / 2))),
    );
  return fc.oneof(...choices);
}

const NUMBER_LITERALS = ['1e400', '-1e400', '123456789012345678901234567890', '1.0', '-0.0', '0e0', '1E2', '0.1e-400'];
const hugeNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    1e308,
    -1e308,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    2 ** 53 + 1,
    -(2 ** 53 + 1),
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 63,
    -0,
    0,
    -1,
    0.5,
    1e-320,
    'NaN',
    'Infinity',
    '-Infinity',
    '1e308',
    '9007199254740993',
    '0x10',
    '1_000',
    ' 1 ',
    '',
    '١',
  ),
  fc.constantFrom(...NUMBER_LITERALS).map((text) => new RawJson(text)),
  fc.double({ noNaN: true }),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map((n) => String(n)),
);

const anyJson = fc.jsonValue({ maxDepth: 3 });

/** Values of every type but the schema's. */
function wrongType(schema: JsonSchema | undefined, current: unknown): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  const kind = type ?? (Array.isArray(current) ? 'array' : current === null ? 'null' : typeof current);
  const pools: Record<string, unknown[]> = {
    string: [1, 0, -1, 1.5, true, false, [], {}, ['a'], { $gt: '' }, { toString: 'x' }, [[[]]]],
    integer: ['1', '', 'uno', true, [], {}, [1], 1.5, { $ne: 0 }],
    number: ['1', '', true, [], {}, [1], { $ne: 0 }],
    boolean: ['true', 'false', 1, 0, 'yes', [], {}, [true]],
    object: ['{}', '', 1, true, [], [{}]],
    array: ['[]', '', 1, true, {}],
  };
  return fc.constantFrom(...(pools[kind] ?? pools.string!));
}

function enumViolation(schema: JsonSchema | undefined, current: unknown): fc.Arbitrary<unknown> {
  const values = (schema?.enum ?? []).filter((value): value is string => typeof value === 'string');
  const source = values.length > 0 ? values : typeof current === 'string' ? [current] : ['x'];
  return fc.oneof(
    fc.constantFrom(...source).map((value) => value.toLowerCase()),
    fc.constantFrom(...source).map((value) => value.toUpperCase()),
    fc.constantFrom(...source).map((value) => ` ${value}`),
    fc.constantFrom(...source).map((value) => `${value}\u0000`),
    fc.constantFrom(...source).map((value) => `${value}x`),
    fc.constantFrom(...source).map((value) => [value]),
    fc.constant(''),
  );
}

const deepNesting: fc.Arbitrary<unknown> = fc
  .tuple(fc.constantFrom(100, 2_000, 20_000), fc.boolean())
  .map(
    ([depth, objects]) =>
      new RawJson(
        objects ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}${']'.repeat(depth)}`,
      ),
  );

// ---- where a value goes ----------------------------------------------------------------------

interface Field {
  path: string[];
  schema?: JsonSchema;
}

function propertiesOf(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  if (!schema) return {};
  const alternatives = [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  return Object.assign({}, ...alternatives.map((alternative) => alternative.properties ?? {}), schema.properties ?? {});
}

function requiredOf(schema: JsonSchema | undefined): string[] {
  if (!schema) return [];
  return [...(schema.required ?? []), ...[...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].flatMap(requiredOf)];
}

/** The schema's fields and the base body's own (webhook bodies have no schema), down to a few levels. */
export function fieldsOf(schema: JsonSchema | undefined, base: unknown): Field[] {
  const found = new Map<string, Field>();
  const walkSchema = (node: JsonSchema | undefined, path: string[]) => {
    if (path.length > 3) return;
    for (const [name, child] of Object.entries(propertiesOf(node))) {
      const at = [...path, name];
      found.set(at.join('\u0001'), { path: at, schema: child });
      walkSchema(child, at);
    }
  };
  const walkValue = (value: unknown, path: string[]) => {
    if (path.length > 4 || value === null || typeof value !== 'object' || Array.isArray(value)) return;
    for (const [name, child] of Object.entries(value)) {
      const at = [...path, name];
      if (!found.has(at.join('\u0001'))) found.set(at.join('\u0001'), { path: at });
      walkValue(child, at);
    }
  };
  walkSchema(schema, []);
  walkValue(base, []);
  return [...found.values()];
}

/** A deep copy that keeps RawJson values (structuredClone would turn them into plain objects). */
const clone = <T>(value: T): T => {
  if (value instanceof RawJson || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(clone) as T;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, clone(item)])) as T;
};

function setAt(root: unknown, path: string[], value: unknown, remove = false): unknown {
  const top: Record<string, unknown> =
    root !== null && typeof root === 'object' && !Array.isArray(root) ? clone(root as Record<string, unknown>) : {};
  let node = top;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    const child = next !== null && typeof next === 'object' && !Array.isArray(next) ? next : {};
    node[key] = child;
    node = child as Record<string, unknown>;
  }
  const last = path.at(-1)!;
  if (remove) delete node[last];
  // defineProperty: an own key named __proto__ (assignment would set the prototype instead).
  else Object.defineProperty(node, last, { value, enumerable: true, writable: true, configurable: true });
  return top;
}

function getAt(root: unknown, path: string[]): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** JSON text of a body, RawJson written as its literal. */
export function serialize(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (item instanceof RawJson) {
      raws.push(item.text);
      return `@@raw${raws.length - 1}@@`;
    }
    if (typeof item === 'bigint') return String(item);
    return item;
  });
  return (text ?? 'null').replace(/"@@raw(\d+)@@"/g, (_match, index: string) => raws[Number(index)]!);
}

const jsonOf = (spec: RequestSpec) => (spec.body.kind === 'json' ? spec.body.value : undefined);
const withJson = (spec: RequestSpec, value: unknown): RequestSpec => ({
  ...spec,
  body: { kind: 'json', value, ...(spec.body.kind === 'json' && spec.body.form ? { form: true } : {}) },
});
const short = (value: unknown) => {
  const text =
    value instanceof RawJson ? value.text : typeof value === 'string' ? JSON.stringify(value) : serialize(value);
  return text.length > 40 ? `${text.slice(0, 40)}… (${text.length} chars)` : text;
};

// ---- body mutations (fast-check) --------------------------------------------------------------

function bodyMutation(op: Operation, base: unknown): fc.Arbitrary<Mutation> | null {
  if (op.body === undefined && (base === undefined || base === null)) return null;
  const fields = fieldsOf(op.body, base);
  const required = requiredOf(op.body);
  const options: fc.Arbitrary<Mutation>[] = [];
  const field = fields.length > 0 ? fc.constantFrom(...fields) : null;
  const set = (kind: CaseKind, value: fc.Arbitrary<unknown>, pick: fc.Arbitrary<Field>) =>
    fc.tuple(pick, value).map(([target, item]): Mutation => ({
      kind,
      label: `${kind}: ${target.path.join('.')} = ${short(item)}`,
      apply: (spec) => withJson(spec, setAt(jsonOf(spec), target.path, item)),
    }));
  if (field) {
    options.push(
      field.map((target): Mutation => ({
        kind: 'missing field',
        label: `missing ${target.path.join('.')}`,
        apply: (spec) => withJson(spec, setAt(jsonOf(spec), target.path, undefined, true)),
      })),
      field.chain((target) =>
        set('wrong type', wrongType(target.schema, getAt(base, target.path)), fc.constant(target)),
      ),
      set('unicode', unicodeString, field),
      field.chain((target) => set('overlong string', overlongString(target.schema), fc.constant(target))),
      set('huge number', hugeNumber, field),
      field.chain((target) => set('enum', enumViolation(target.schema, getAt(base, target.path)), fc.constant(target))),
      set('wrong type', fc.constant(null), field),
      set('deep nesting', deepNesting, field),
    );
  }
  if (required.length > 0)
    options.push(
      fc.constantFrom(...required).map((name): Mutation => ({
        kind: 'missing field',
        label: `missing required ${name}`,
        apply: (spec) => withJson(spec, setAt(jsonOf(spec), [name], undefined, true)),
      })),
    );
  options.push(
    fc
      .tuple(
        fc.oneof(
          fc.constantFrom(
            '__proto__',
            'constructor',
            'prototype',
            'id',
            'user_id',
            'role',
            'is_admin',
            'status',
            'next_step',
            '',
          ),
          fc.string({ unit: 'binary', maxLength: 20 }),
        ),
        fc.oneof(anyJson, fc.constant({ polluted: true, isAdmin: true })),
      )
      .map(([key, value]): Mutation => ({
        kind: 'extra field',
        label: `extra ${JSON.stringify(key)} = ${short(value)}`,
        apply: (spec) => withJson(spec, setAt(jsonOf(spec), [key], value)),
      })),
    fc
      .oneof(
        fc.constantFrom<unknown>(null, [], {}, '', 'texto', 0, -1, true, 1e308),
        anyJson,
        fc.constant(new RawJson('1e400')),
      )
      .map((value): Mutation => ({
        kind: 'root type',
        label: `body = ${short(value)}`,
        apply: (spec) => withJson(spec, value),
      })),
    fc.constant<Mutation>({
      kind: 'root type',
      label: 'body = [base]',
      apply: (spec) => withJson(spec, [jsonOf(spec)]),
    }),
  );
  return fc.oneof(...options);
}

// ---- query mutations -----------------------------------------------------------------------

function queryPairs(spec: RequestSpec): [string, string][] {
  return Array.isArray(spec.query) ? spec.query : [];
}

function queryMutation(op: Operation): fc.Arbitrary<Mutation> {
  const names = op.query.map((parameter) => parameter.name);
  const byName = Object.fromEntries(op.query.map((parameter) => [parameter.name, parameter.schema]));
  const name = names.length > 0 ? fc.constantFrom(...names) : fc.constant('q');
  const value = (schema: JsonSchema | undefined): fc.Arbitrary<string> =>
    fc.oneof(
      unicodeString,
      overlongString(schema),
      hugeNumber.map((item) => (item instanceof RawJson ? item.text : String(item))),
      enumViolation(schema, 'x').map(String),
    );
  const replace = (pairs: [string, string][], key: string, item: string): [string, string][] => [
    ...pairs.filter(([k]) => k !== key),
    [key, item],
  ];
  return fc.oneof(
    name.chain((key) =>
      value(byName[key]).map((item): Mutation => ({
        kind: 'query',
        label: `?${key}=${short(item)}`,
        apply: (spec) => ({ ...spec, query: replace(queryPairs(spec), key, item) }),
      })),
    ),
    name.map((key): Mutation => ({
      kind: 'query',
      label: `without ?${key}`,
      apply: (spec) => ({ ...spec, query: queryPairs(spec).filter(([k]) => k !== key) }),
    })),
    fc.tuple(name, fc.array(unicodeString, { minLength: 1, maxLength: 3 })).map(([key, items]): Mutation => ({
      kind: 'query',
      label: `?${key} repeated ${items.length + 1} times`,
      apply: (spec) => ({
        ...spec,
        query: [...queryPairs(spec), ...items.map((item): [string, string] => [key, item])],
      }),
    })),
    fc
      .tuple(
        fc.oneof(
          fc.constantFrom(
            '__proto__',
            'constructor',
            '__proto__[polluted]',
            'constructor[prototype][polluted]',
            'a[]',
            '',
          ),
          unicodeString,
        ),
        unicodeString,
      )
      .map(([key, item]): Mutation => ({
        kind: 'query',
        label: `extra ?${short(key)}=${short(item)}`,
        apply: (spec) => ({ ...spec, query: [...queryPairs(spec), [key, item]] }),
      })),
  );
}

// ---- path parameter mutations ---------------------------------------------------------------

/** Path values written in the URL as they are (traversal, encodings) or encoded (SQL, unicode). */
const PATH_ATTACKS_RAW = [
  '..',
  '../..',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2f',
  '%2e%2e',
  '..%5c..%5c',
  '%252e%252e%252f',
  '%00',
  '%ZZ',
  '%',
  '%C0%AF',
  '%FF%FE',
  '%E2%80%AE',
  '.',
  '~',
  '*',
];
const PATH_ATTACKS_TEXT = [
  "' OR 1=1 --",
  '1 OR 1=1',
  ';drop table users',
  "'; drop table users; --",
  '1; select pg_sleep(1)',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF',
  '{00000000-0000-4000-8000-000000000000}',
  '-1',
  '0',
  '2147483648',
  '9223372036854775808',
  '1e308',
  '1.5',
  'NaN',
  'null',
  '😀',
  '\u202e',
  ' ',
  'x'.repeat(100),
];

/** encodeURIComponent, a lone surrogate written as the bytes UTF-8 would give it (%ED%A0%80, invalid). */
export const encodePath = (text: string) =>
  Array.from(text)
    .map((character) => (/^[\ud800-\udfff]$/.test(character) ? '%ED%A0%80' : encodeURIComponent(character)))
    .join('');

function pathMutation(op: Operation): fc.Arbitrary<Mutation> | null {
  if (op.pathParams.length === 0) return null;
  const name = fc.constantFrom(...op.pathParams.map((parameter) => parameter.name));
  const written = fc.oneof(
    fc.constantFrom(...PATH_ATTACKS_RAW),
    fc.constantFrom(...PATH_ATTACKS_TEXT, ...SPECIAL_STRINGS.filter(Boolean)).map(encodePath),
    unicodeString.filter((text) => text.length > 0).map(encodePath),
    hugeNumber.map((item) => encodePath(item instanceof RawJson ? item.text : String(item)) || '0'),
    fc.constantFrom(99, 100, 101, 1_000, 10_000).map((length) => 'a'.repeat(length)),
  );
  return fc.tuple(name, written).map(([key, value]): Mutation => ({
    kind: 'path parameter',
    label: `{${key}} = ${short(value)}`,
    apply: (spec) => ({ ...spec, params: { ...spec.params, [key]: value } }),
  }));
}

// ---- numbers inside values ------------------------------------------------------------------

/** Digit runs a 32-bit or 64-bit column cannot hold, and edge values. */
const BIG_DIGITS = [
  '2147483648',
  '4294967296',
  '9999999999',
  '9223372036854775808',
  '99999999999999999999999',
  '0',
  '000001',
];

/**
 * A number inside a value of the base (an id like catalog:123, a date, a phone) made huge: the
 * value keeps its shape, so it passes the schema and reaches the code that reads the number.
 */
function digitsMutation(op: Operation, baseBody: unknown): fc.Arbitrary<Mutation> | null {
  const targets: { where: 'body' | 'params' | 'query'; key: string[] }[] = [
    ...fieldsOf(op.body, baseBody).map((field) => ({ where: 'body' as const, key: field.path })),
    ...op.pathParams.map((parameter) => ({ where: 'params' as const, key: [parameter.name] })),
    ...op.query.map((parameter) => ({ where: 'query' as const, key: [parameter.name] })),
  ];
  if (targets.length === 0) return null;
  // A digit run replaced (the first or every one), or every digit set to 9 or 0 (same shape:
  // 2026-01-01 → 9999-99-99, 0000-00-00).
  const swap = (value: unknown, digits: string, all: boolean) => {
    if (typeof value !== 'string' || !/\d/.test(value)) return value;
    if (digits.length === 1 && all) return value.replace(/\d/g, digits);
    return value.replace(all ? /\d+/g : /\d+/, digits);
  };
  return fc
    .tuple(fc.constantFrom(...targets), fc.constantFrom(...BIG_DIGITS, '9', '0'), fc.boolean())
    .map(([target, digits, all]): Mutation => ({
      kind: 'huge number',
      label: `digits of ${target.where}.${target.key.join('.')} → ${digits}${all ? ' (every one)' : ''}`,
      apply: (spec) => {
        if (target.where === 'body') {
          const current = getAt(jsonOf(spec), target.key);
          return typeof current === 'string'
            ? withJson(spec, setAt(jsonOf(spec), target.key, swap(current, digits, all)))
            : spec;
        }
        if (target.where === 'params') {
          const name = target.key[0]!;
          // The value as the route reads it (decoded), then written back in the URL.
          let value = spec.params[name] ?? '';
          try {
            value = decodeURIComponent(value);
          } catch {
            // written raw by an earlier change: changed as it is
          }
          return { ...spec, params: { ...spec.params, [name]: encodePath(String(swap(value, digits, all))) } };
        }
        const name = target.key[0]!;
        return {
          ...spec,
          query: queryPairs(spec).map(([k, v]): [string, string] => [k, k === name ? String(swap(v, digits, all)) : v]),
        };
      },
    }));
}

/** The fast-check arbitrary of one operation's requests: one to three changes to its base. */
export function mutationArbitrary(op: Operation, baseBody: unknown): fc.Arbitrary<Mutation> {
  // The body's fields first; query parameters the route does not take only now and then.
  const body = bodyMutation(op, baseBody);
  const path = pathMutation(op);
  const digits = digitsMutation(op, baseBody);
  const single = fc.oneof(
    ...(body ? [{ arbitrary: body, weight: 5 }] : []),
    ...(digits ? [{ arbitrary: digits, weight: 2 }] : []),
    { arbitrary: queryMutation(op), weight: op.query.length > 0 ? 3 : 1 },
    ...(path ? [{ arbitrary: path, weight: 2 }] : []),
  );
  return fc.array(single, { minLength: 1, maxLength: 3 }).map((mutations) =>
    mutations.length === 1
      ? mutations[0]!
      : {
          kind: mutations[0]!.kind,
          label: mutations.map((mutation) => mutation.label).join(' + '),
          apply: (spec) => mutations.reduce((current, mutation) => mutation.apply(current), spec),
        },
  );
}

// ---- the fixed cases every operation gets ----------------------------------------------------

const withRaw =
  (payload: string | Buffer, contentType: string | null) =>
  (spec: RequestSpec): RequestSpec => ({
    ...spec,
    body: { kind: 'raw', payload, contentType },
  });

export interface FixedOptions {
  /** The route's body limit (the app's BODY_LIMIT_BYTES unless the route sets its own). */
  bodyLimit: number;
}

/** One case of each kind every operation gets on every run (the rest are drawn with the random ones). */
const CORE = new Set([
  'malformed JSON: truncated',
  'malformed JSON: __proto__ key',
  'content type: text/plain',
  'content type: multipart/form-data (a form of the fields)',
  'a GET with a malformed JSON body',
  'query string "%ZZ"',
]);
const CORE_PATH = new Set([
  '..%2F..%2F..%2Fetc%2Fpasswd',
  encodeURIComponent("' OR 1=1 --"),
  encodeURIComponent(';drop table users'),
  'a'.repeat(101),
]);

/** Malformed JSON, wrong content types, a body over the limit, path and query attacks. */
export function fixedMutations(op: Operation, options: FixedOptions): Mutation[] {
  return listedMutations(op, options).map((mutation) =>
    CORE.has(mutation.label) || (mutation.kind === 'huge body' && mutation.expectStatus === 413)
      ? { ...mutation, core: true }
      : mutation,
  );
}

function listedMutations(op: Operation, options: FixedOptions): Mutation[] {
  const cases: Mutation[] = [];
  const readsBody = !['GET', 'HEAD'].includes(op.method);
  const baseText = (spec: RequestSpec) =>
    spec.body.kind === 'json'
      ? serialize(spec.body.value)
      : spec.body.kind === 'raw'
        ? String(spec.body.payload)
        : '{}';
  if (readsBody) {
    const malformed: [string, (spec: RequestSpec) => string][] = [
      ['truncated', (spec) => baseText(spec).slice(0, Math.max(1, Math.floor(baseText(spec).length / 2)))],
      ['trailing comma', (spec) => baseText(spec).replace(/}$/, ',}')],
      ['two documents', (spec) => `${baseText(spec)}${baseText(spec)}`],
      ['single quotes', () => "{'a': 1}"],
      ['BOM first', (spec) => `\ufeff${baseText(spec)}`],
      ['bare word', () => 'nul'],
      ['empty', () => ''],
      ['whitespace', () => ' \n '],
      ['lone surrogate escape', () => '{"a":"\\ud800"}'],
      ['bad escape', () => '{"a":"\\x41"}'],
      ['number 1e400', () => '1e400'],
      ['deep arrays', () => `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
      [
        'duplicate keys',
        (spec) => baseText(spec).replace(/}$/, baseText(spec).length > 2 ? ',"a":1,"a":{"b":2}}' : '"a":1,"a":2}'),
      ],
      [
        '__proto__ key',
        (spec) =>
          baseText(spec).replace(
            /^\{/,
            baseText(spec).length > 2 ? '{"__proto__":{"polluted":true},' : '{"__proto__":{"polluted":true}',
          ),
      ],
      ['constructor.prototype', () => '{"constructor":{"prototype":{"polluted":true}}}'],
    ];
    for (const [label, text] of malformed)
      cases.push({
        kind: 'malformed JSON',
        label: `malformed JSON: ${label}`,
        apply: (spec) => withRaw(text(spec), 'application/json')(spec),
      });
    const types: [string, (spec: RequestSpec) => RequestSpec][] = [
      ['text/plain', (spec) => withRaw(baseText(spec), 'text/plain')(spec)],
      ['application/x-www-form-urlencoded', (spec) => withRaw(formOf(spec), 'application/x-www-form-urlencoded')(spec)],
      ['multipart/form-data (a form of the fields)', (spec) => multipartOf(spec)],
      ['multipart/form-data without a boundary', (spec) => withRaw(baseText(spec), 'multipart/form-data')(spec)],
      ['application/xml', withRaw('<a>1</a>', 'application/xml')],
      [
        'application/json; charset=utf-16le',
        (spec) => withRaw(Buffer.from(baseText(spec), 'utf16le'), 'application/json; charset=utf-16le')(spec),
      ],
      ['application/json in latin1 bytes', withRaw(Buffer.from('{"name":"Peña"}', 'latin1'), 'application/json')],
      ['no content type', (spec) => withRaw(baseText(spec), null)(spec)],
      ['APPLICATION/JSON', (spec) => withRaw(baseText(spec), 'APPLICATION/JSON')(spec)],
      ['application/json;;; charset=', (spec) => withRaw(baseText(spec), 'application/json;;; charset=')(spec)],
      ['image/jpeg', withRaw(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), 'image/jpeg')],
      ['binary garbage as JSON', withRaw(Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0xc3, 0x28]), 'application/json')],
    ];
    for (const [label, make] of types)
      cases.push({ kind: 'content type', label: `content type: ${label}`, apply: make });
    const filler = 'a'.repeat(options.bodyLimit + 1);
    cases.push({
      kind: 'huge body',
      label: `JSON body of ${options.bodyLimit + 1} bytes`,
      apply: withRaw(`{"x":"${filler}"}`, 'application/json'),
      expectStatus: 413,
    });
    cases.push({
      kind: 'huge body',
      label: `text body of ${options.bodyLimit + 1} bytes`,
      apply: withRaw(filler, 'text/plain'),
    });
  } else {
    cases.push({
      kind: 'content type',
      label: 'a GET with a malformed JSON body',
      apply: withRaw('{"a":', 'application/json'),
    });
  }
  const rawQueries = [
    '%ZZ',
    'a=%',
    '%00=1',
    'a=%C0%AF',
    '__proto__[polluted]=1&constructor[prototype][polluted]=1',
    `a=${'x'.repeat(100_000)}`,
    '&&&==&',
    'a=1&a=2&a=3',
  ];
  for (const raw of rawQueries)
    cases.push({
      kind: 'query',
      label: `query string ${short(raw)}`,
      apply: (spec) => ({
        ...spec,
        query: {
          raw: [new URLSearchParams(queryPairs(spec)).toString(), raw].filter(Boolean).join('&'),
        },
      }),
    });
  for (const parameter of op.pathParams)
    for (const value of [
      '..',
      '..%2F..%2F..%2Fetc%2Fpasswd',
      '%2e%2e%2f',
      encodeURIComponent("' OR 1=1 --"),
      encodeURIComponent(';drop table users'),
      'a'.repeat(100),
      'a'.repeat(101),
      '9'.repeat(5_000),
      '%00',
      encodeURIComponent('😀\u202e'),
    ])
      cases.push({
        kind: 'path parameter',
        label: `{${parameter.name}} = ${short(value)}`,
        apply: (spec) => ({ ...spec, params: { ...spec.params, [parameter.name]: value } }),
        ...(value.length > 100 && !value.includes('%') ? { expectStatus: 414 } : {}),
        ...(CORE_PATH.has(value) ? { core: true } : {}),
      });
  // Another method on the same path: the route tree answers (404 envelope, or the other route).
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => m !== op.method))
    cases.push({ kind: 'method', label: `${method} instead of ${op.method}`, apply: (spec) => ({ ...spec, method }) });
  cases.push(
    {
      kind: 'query',
      label: 'query string with 5,000 parameters',
      apply: (spec) => ({ ...spec, query: { raw: Array.from({ length: 5_000 }, (_, i) => `k${i}=v`).join('&') } }),
    },
    {
      kind: 'content type',
      label: 'content-encoding: gzip on plain JSON',
      apply: (spec) => ({ ...spec, headers: { ...spec.headers, 'content-encoding': 'gzip' } }),
    },
  );
  cases.push(...credentialMutations());
  return cases;
}

/** The caller's credentials, malformed (each case changes only what the base carries). */
function credentialMutations(): Mutation[] {
  const change = (label: string, header: string, make: (value: string) => string): Mutation => ({
    kind: 'credentials',
    label,
    apply: (spec) => {
      const name = Object.keys(spec.headers).find((key) => key.toLowerCase() === header);
      return name ? { ...spec, headers: { ...spec.headers, [name]: make(spec.headers[name]!) } } : spec;
    },
  });
  const token = (value: string) => value.replace(/^Bearer /, '');
  return [
    change('a token with a byte more', 'authorization', (value) => `${value}x`),
    change('a token of 10,000 characters', 'authorization', () => `Bearer ${'a'.repeat(10_000)}`),
    change('a token of five parts', 'authorization', (value) => `${value}.a.b`),
    change(
      'a token with its parts swapped',
      'authorization',
      (value) => `Bearer ${token(value).split('.').reverse().join('.')}`,
    ),
    change('lower-case bearer and two spaces', 'authorization', (value) => `bearer  ${token(value)}`),
    change('Basic instead of Bearer', 'authorization', () => 'Basic dXNlcjpwYXNz'),
    change('a session cookie with a byte more', 'cookie', (value) => `${value}x`),
    change('a session cookie cut in half', 'cookie', (value) => value.slice(0, Math.ceil(value.length / 2))),
    change('a session cookie with a bad percent-encoding', 'cookie', () => 'provee_staff=%E0%A4%A'),
    change('the session cookie twice', 'cookie', (value) => `${value}; ${value.replace(/=.*/, '=otro')}`),
    change('a cookie of 8,000 characters', 'cookie', () => `provee_staff=${'a'.repeat(8_000)}`),
    change('an api key with a space', 'x-api-key', (value) => `${value} `),
    change('an api key of 10,000 characters', 'x-api-key', () => 'k'.repeat(10_000)),
    {
      kind: 'credentials',
      label: 'a signature that is not the body’s',
      apply: (spec) => ({
        ...spec,
        signature: (headers) =>
          Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value.replace(/[0-9a-f]$/i, '0')])),
      }),
    },
    {
      kind: 'credentials',
      label: 'a signature header of garbage',
      apply: (spec) => ({
        ...spec,
        signature: (headers) => Object.fromEntries(Object.keys(headers).map((name) => [name, 't=abc,v1=zz,,=='])),
      }),
    },
  ];
}

export function formOf(spec: RequestSpec): string {
  const value = spec.body.kind === 'json' ? spec.body.value : {};
  if (value === null || typeof value !== 'object') return 'a=1';
  return new URLSearchParams(
    Object.entries(value).map(([key, item]): [string, string] => [
      key,
      typeof item === 'string' ? item : serialize(item),
    ]),
  ).toString();
}

function multipartOf(spec: RequestSpec): RequestSpec {
  const value = spec.body.kind === 'json' ? spec.body.value : {};
  const fields =
    value !== null && typeof value === 'object'
      ? Object.entries(value).map(([key, item]): [string, string] => [
          key,
          typeof item === 'string' ? item : serialize(item),
        ])
      : [];
  return { ...spec, body: { kind: 'multipart', value: { files: [], fields } } };
}

// ---- multipart routes --------------------------------------------------------------------------

/** The identity photos' upload: forms with files missing, extra, empty, too big, not images, broken. */
export function multipartMutations(base: MultipartBody, limits: { fileBytes: number; bodyLimit: number }): Mutation[] {
  const jpeg = base.files[0]?.bytes ?? new Uint8Array([0xff, 0xd8, 0xff]);
  const replace = (change: (body: MultipartBody) => MultipartBody, label: string, expectStatus?: number): Mutation => ({
    kind: 'multipart',
    label,
    apply: (spec) =>
      spec.body.kind === 'multipart' ? { ...spec, body: { ...spec.body, value: change(spec.body.value) } } : spec,
    ...(expectStatus ? { expectStatus } : {}),
  });
  const file = (name: string, bytes: Uint8Array, contentType = 'image/jpeg', filename = `${name}.jpg`) => ({
    name,
    filename,
    contentType,
    bytes,
  });
  return [
    replace((body) => ({ ...body, files: body.files.slice(1) }), 'a photo missing'),
    replace((body) => ({ ...body, files: [] }), 'no photos'),
    replace((body) => ({ ...body, files: [...body.files, file('passport', jpeg)] }), 'an unexpected file'),
    replace((body) => ({ ...body, files: [...body.files, file(body.files[0]!.name, jpeg)] }), 'a photo sent twice'),
    replace(
      (body) => ({ ...body, files: body.files.map((f, i) => (i === 0 ? { ...f, bytes: new Uint8Array() } : f)) }),
      'an empty photo',
    ),
    replace(
      (body) => ({
        ...body,
        files: body.files.map((f, i) => (i === 0 ? { ...f, bytes: Buffer.from('no soy una foto') } : f)),
      }),
      'a text file as a photo',
    ),
    replace(
      (body) => ({
        ...body,
        files: body.files.map((f, i) =>
          i === 0
            ? { ...f, bytes: Buffer.from('<svg onload="alert(1)"/>'), contentType: 'image/svg+xml', filename: 'x.svg' }
            : f,
        ),
      }),
      'an SVG as a photo',
    ),
    replace(
      (body) => ({ ...body, files: body.files.map((f, i) => (i === 0 ? { ...f, bytes: jpeg.slice(0, 20) } : f)) }),
      'a truncated JPEG',
    ),
    replace(
      (body) => ({
        ...body,
        files: body.files.map((f, i) => (i === 0 ? { ...f, filename: '../../etc/passwd\u0000.jpg' } : f)),
      }),
      'a file name with traversal and NUL',
    ),
    replace(
      (body) => ({
        ...body,
        files: body.files.map((f, i) => (i === 0 ? { ...f, bytes: new Uint8Array(limits.fileBytes + 1) } : f)),
      }),
      `a photo of ${limits.fileBytes + 1} bytes`,
      413,
    ),
    replace((body) => ({ ...body, fields: [...body.fields, ['person_type', 'titular\u0000']] }), 'a field with NUL'),
    replace((body) => ({ ...body, fields: [['person_type', 'x'.repeat(10_000)]] }), 'a field over its size'),
    replace(
      (body) => ({ ...body, fields: body.fields.map(([k]) => [k, 'alien'] as [string, string]) }),
      'fields out of their enums',
    ),
    replace(
      (body) => ({ ...body, fields: Array.from({ length: 20 }, (_, i): [string, string] => [`f${i}`, 'v']) }),
      'too many fields',
    ),
    replace((body) => ({ ...body, fields: [['__proto__', '{"polluted":true}'], ...body.fields] }), 'a __proto__ field'),
    replace((body) => ({ ...body, broken: 'boundary' }), 'a boundary that does not match'),
    replace((body) => ({ ...body, broken: 'truncated' }), 'a form without its closing line'),
    // The form plugin reads the body itself (its own limits: files, sizes, parts), so garbage over
    // the route's limit is refused as a malformed form: a 4xx either way.
    {
      kind: 'multipart',
      label: `${limits.bodyLimit + 1} bytes of garbage as a form`,
      apply: (spec) => ({
        ...spec,
        body: {
          kind: 'raw',
          payload: Buffer.alloc(limits.bodyLimit + 1, 97),
          contentType: 'multipart/form-data; boundary=x',
        },
      }),
    },
    {
      kind: 'content type',
      label: 'JSON instead of the form',
      apply: (spec) => ({ ...spec, body: { kind: 'json', value: { person_type: 'titular', id_front: 'aGVsbG8=' } } }),
    },
    {
      kind: 'content type',
      label: 'no body',
      apply: (spec) => ({ ...spec, body: { kind: 'none' } }),
    },
  ];
}

/** fast-check arbitrary of multipart forms: random fields and files around the base's. */
export function multipartArbitrary(): fc.Arbitrary<Mutation> {
  return fc
    .tuple(
      fc.array(
        fc.tuple(
          fc.oneof(fc.constantFrom('person_type', 'verification_type', 'id_front'), unicodeString),
          unicodeString,
        ),
        {
          maxLength: 4,
        },
      ),
      fc.array(
        fc.tuple(
          fc.oneof(
            fc.constantFrom('id_front', 'id_back', 'selfie'),
            unicodeString.filter((s) => s.length > 0),
          ),
          fc.uint8Array({ maxLength: 64 }),
          fc.oneof(fc.constantFrom('image/jpeg', 'image/png', 'application/octet-stream', ''), unicodeString),
        ),
        { maxLength: 4 },
      ),
    )
    .map(([fields, files]): Mutation => ({
      kind: 'multipart',
      label: `form fields ${short(fields.map(([k]) => k))}, files ${short(files.map(([k]) => k))}`,
      apply: (spec) =>
        spec.body.kind === 'multipart'
          ? {
              ...spec,
              body: {
                ...spec.body,
                value: {
                  fields: [...spec.body.value.fields, ...fields],
                  files: [
                    ...spec.body.value.files.filter((f) => !files.some(([name]) => name === f.name)),
                    ...files.map(([name, bytes, contentType]) => ({
                      name,
                      filename: `${name}.bin`,
                      contentType,
                      bytes,
                    })),
                  ],
                },
              },
            }
          : spec,
    }));
}

/** A multipart body as bytes and its content type. */
export function encodeMultipart(body: MultipartBody): { payload: Buffer; contentType: string } {
  const boundary = `----fuzz${Math.random().toString(16).slice(2)}`;
  const header = (text: string) => text.replace(/[\r\n"]/g, '_');
  const parts: Buffer[] = [];
  for (const [name, value] of body.fields)
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${header(name)}"\r\n\r\n${value}\r\n`),
    );
  for (const file of body.files)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${header(file.name)}"; filename="${header(file.filename)}"\r\nContent-Type: ${header(file.contentType) || 'application/octet-stream'}\r\n\r\n`,
      ),
      Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  if (body.broken !== 'truncated') parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    contentType: `multipart/form-data; boundary=${body.broken === 'boundary' ? `${boundary}x` : boundary}`,
  };
}

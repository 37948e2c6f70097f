// Issue 13, suite 7 (hygiene): the scanner's pure logic, imported by hygiene.mjs and by its test
// (apps/api/test/hygiene-scan.test.ts). No file system here: text in, findings out.

/** The kinds of secret the e2e ledger records (e2e/hygiene-ledger.ts). */
export const SECRET_KINDS = [
  'taxId',
  'birthDate',
  'smsCode',
  'pin',
  'password',
  'staffPassword',
  'bearerToken',
  'linkToken',
  'sessionCookie',
  'proofSession',
  'totpSecret',
  'recoveryCode',
  'webhookSecret',
  'partnerKey',
  // A person's values erased on their request (issue 31, e2e/privacy.spec.ts): nowhere after the erasure.
  'erasedPerson',
];

/** Kinds a whole e2e run must have recorded, or the ledger is broken and the scan would prove nothing. */
export const REQUIRED_KINDS = [
  'taxId',
  'birthDate',
  'smsCode',
  'pin',
  'password',
  'bearerToken',
  'linkToken',
  'proofSession',
];

/** Tables whose rows are never looked at for short secrets: public reference data (their numeric codes). */
const REFERENCE_TABLE = /^(catalog_|drizzle\.)/;
/**
 * The SMS outbox is the simulated carrier (SMS_PROVIDER=outbox, test mode only): what it holds was
 * sent to the person's phone, codes and links included, so it is where secrets are harvested from,
 * not where they leak. With a real provider the table stays empty.
 */
export const CARRIER_TABLE = 'sms_outbox';

/** Columns that must hold the app's ciphertext (apps/api/src/crypto.ts: "v1|v2.<iv>.<tag>.<ciphertext>"; v2 under the person's own key). */
export const ENCRYPTED_COLUMNS = [
  { table: 'users', column: 'tax_id_encrypted', kind: 'taxId' },
  { table: 'users', column: 'dob_encrypted', kind: 'birthDate' },
  { table: 'avals', column: 'tax_id_encrypted', kind: 'taxId' },
  // Kept for a bureau that audits consents (Círculo's NIP audit), and a real bureau's answer (its RFC, its accounts).
  { table: 'bureau_consents', column: 'pin_encrypted', kind: 'pin' },
  { table: 'bureau_queries', column: 'report_raw_encrypted', kind: 'taxId' },
  // Who a query asked about, kept for Círculo's NIP audit; a guarantor's home address for Círculo.
  { table: 'bureau_queries', column: 'subject_encrypted', kind: 'taxId' },
  { table: 'avals', column: 'address_encrypted', kind: 'taxId' },
];
/** 12-byte IV, 16-byte tag, base64url. */
export const CIPHERTEXT = /^v[12]\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/;
/** The tax id's keyed lookup hash (HMAC-SHA256, hex). */
const LOOKUP_HASH = /^[0-9a-f]{64}$/;

// ---------------------------------------------------------------------------------------------
// Check digits (packages/domain: cedula.ts, rfc.ts), for the patterns that back up the ledger.

export function cedulaCheckDigit(firstTen) {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const product = Number(firstTen[i]) * (i % 2 === 0 ? 1 : 2);
    sum += product > 9 ? product - 9 : product;
  }
  return (10 - (sum % 10)) % 10;
}

const RFC_VALUES = '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ';
export function isValidRfc(value) {
  const match = /^([A-ZÑ&]{4})(\d{2})(\d{2})(\d{2})([A-Z\d]{2})([A\d])$/.exec(value);
  if (!match) return false;
  const [month, day] = [Number(match[3]), Number(match[4])];
  if (month < 1 || month > 12 || day < 1 || day > 31) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Math.max(0, RFC_VALUES.indexOf(value[i])) * (13 - i);
  const remainder = sum % 11;
  const digit = remainder === 0 ? '0' : 11 - remainder === 10 ? 'A' : String(11 - remainder);
  return digit === value[12];
}

// ---------------------------------------------------------------------------------------------
// What to look for.

/** The ledger's lines (JSONL), deduplicated by kind and value. */
export function parseLedger(text) {
  const seen = new Map();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const { kind, value, source } = JSON.parse(line);
    if (!SECRET_KINDS.includes(kind)) throw new Error(`unknown secret kind in the ledger: ${kind}`);
    if (typeof value === 'string' && value && !seen.has(`${kind}\0${value}`))
      seen.set(`${kind}\0${value}`, { kind, value, source });
  }
  return [...seen.values()];
}

/** The secrets an SMS carries (what the e2e ledger does with the outbox, for every SMS sent). */
export function secretsOfSms(body) {
  const found = [];
  for (const match of body.matchAll(/https?:\/\/\S+/g)) {
    try {
      const token = new URL(match[0]).searchParams.get('token');
      if (token) found.push({ kind: 'linkToken', value: token });
    } catch {
      // not a URL
    }
  }
  const [kind, digits] = /NIP/i.test(body) ? ['pin', 4] : ['smsCode', 6];
  for (const match of body.matchAll(new RegExp(`(?<![0-9A-Za-z])(\\d{${digits}})(?![0-9A-Za-z])`, 'g')))
    found.push({ kind, value: match[1] });
  return found;
}

const MONTHS = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];

/** The forms a secret may be written in: a cédula with and without dashes, a date in every usual format. */
export function variantsOf(kind, value) {
  if (kind === 'taxId') {
    const digits = value.replace(/-/g, '');
    if (/^\d{11}$/.test(digits)) return [digits, `${digits.slice(0, 3)}-${digits.slice(3, 10)}-${digits.slice(10)}`];
    return [value.toUpperCase()];
  }
  if (kind === 'birthDate') {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (!match) return [value];
    const [, y, m, d] = match;
    const day = String(Number(d));
    return [
      `${y}-${m}-${d}`,
      `${y}/${m}/${d}`,
      `${y}${m}${d}`,
      `${d}/${m}/${y}`,
      `${d}-${m}-${y}`,
      `${d}.${m}.${y}`,
      `${m}/${d}/${y}`,
      `${day} de ${MONTHS[Number(m) - 1]} de ${y}`,
    ];
  }
  if (kind === 'recoveryCode') {
    // Typed with or without its dash.
    return [value, value.replace(/-/g, '')];
  }
  if (kind === 'bearerToken' || kind === 'linkToken') {
    // payload.signature: either half alone is a leak (the claims, or what makes them good).
    const parts = value.split('.').filter((part) => part.length >= 16);
    return parts.length > 0 ? [value, ...parts] : [value];
  }
  return [value];
}

/** Shorter than this, a value is only looked for where it is named (a code next to `code`). */
const SHORT = 8;
const ALNUM = /^[A-Za-z0-9Ñ&]+$/;
const WORDISH = /^[A-Za-z0-9_-]+$/;

/**
 * Needles grouped by how they are found: whole alphanumeric words, whole base64url-ish words, plain
 * substrings, and short values that count only next to the name of what they are.
 */
export function buildNeedles(secrets) {
  const needles = { alnum: new Map(), wordish: new Map(), substrings: new Map(), short: new Map(), count: {} };
  for (const kind of SECRET_KINDS) needles.count[kind] = 0;
  const seen = new Set();
  for (const { kind, value } of secrets) {
    if (seen.has(`${kind}\0${value}`)) continue;
    seen.add(`${kind}\0${value}`);
    needles.count[kind] += 1;
    for (const variant of variantsOf(kind, value)) {
      const entry = { kind, value: variant };
      if (variant.length < SHORT && !(kind === 'taxId' || kind === 'birthDate')) needles.short.set(variant, entry);
      else if (ALNUM.test(variant)) needles.alnum.set(variant, entry);
      else if (WORDISH.test(variant) && kind !== 'birthDate') needles.wordish.set(variant, entry);
      else needles.substrings.set(variant, entry);
    }
  }
  return needles;
}

// ---------------------------------------------------------------------------------------------
// Looking.

/** What a finding prints: the value's kind and at most its first two characters. */
export function maskValue(kind, value) {
  return value.length >= SHORT ? `[${kind} ${value.slice(0, 2)}…(${value.length})]` : `[${kind} …(${value.length})]`;
}

/** A line around a finding, with the finding and any other long digit run or token masked. */
function excerpt(line, index, length, label) {
  const from = Math.max(0, index - 60);
  const to = Math.min(line.length, index + length + 60);
  const before = line.slice(from, index);
  const after = line.slice(index + length, to);
  const hide = (text) => text.replace(/[A-Za-z0-9_-]{20,}/g, '[…]').replace(/\d{4,}/g, '[…]');
  return `${from > 0 ? '…' : ''}${hide(before)}${label}${hide(after)}${to < line.length ? '…' : ''}`;
}

const SHORT_BY_NAME =
  /(?:["'?&\s,{]|^)(code|codigo|código|nip|pin|default_nip|otp|password|password_confirmation|contrasena|contraseña|clave)["']?\s*[:=]\s*["']?([A-Za-z0-9]{4,7})(?![A-Za-z0-9])/gi;
/** In a sentence: "123456 es tu código", "tu NIP es 1234" (the gap stays inside one JSON string). */
const SHORT_IN_TEXT_AFTER = /(?<![A-Za-z0-9])(\d{4,7})(?![A-Za-z0-9])[^"\n]{0,24}?\b(c[oó]digo|NIP|contrase[ñn]a)\b/gi;
const SHORT_IN_TEXT_BEFORE = /\b(c[oó]digo|NIP|contrase[ñn]a)\b[^"\n]{0,40}?(?<![A-Za-z0-9])(\d{4,7})(?![A-Za-z0-9])/gi;

/** Eleven digits standing alone: not inside a word or a longer number, nor the decimals of a fraction. */
const CEDULA = /(?<![A-Za-z0-9+]|\d\.)(\d{3})(-?)(\d{7})\2(\d)(?![A-Za-z0-9]|\.\d)/g;
const RFC = /(?<![A-Za-z0-9Ñ&])([A-ZÑ&]{4}\d{6}[A-Z\d]{2}[A\d])(?![A-Za-z0-9Ñ&])/g;
const BEARER = /\bBearer\s+(?!\[)[A-Za-z0-9._~+/=-]{16,}/g;
/** The app's tokens (base64url of {"v":1,…}) and JWTs: base64url of a JSON object, a dot, more. */
const TOKENISH = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g;

/** A Dominican mobile number written without its '+' (1 809/829/849 …), which has 11 digits too. */
const looksLikePhone = (digits) => /^1(809|829|849)\d{7}$/.test(digits);

/** A finding over the whole of a pattern's match (`value` is what it found: the match itself by default). */
const matchFinding = (match, kind, how, value = match[0]) => ({
  kind,
  how,
  index: match.index,
  length: match[0].length,
  value,
});

/**
 * Patterns that back up the ledger: a cédula with a valid check digit, a valid RFC, a bearer
 * header, a token, and (in logs) a 4–6 digit value named code, nip, pin or password.
 */
function patternFindings(line, { namedShortValues }) {
  const found = [];
  for (const match of line.matchAll(CEDULA)) {
    const digits = `${match[1]}${match[3]}${match[4]}`;
    if (looksLikePhone(digits) && !match[2]) continue;
    if (cedulaCheckDigit(digits.slice(0, 10)) === Number(digits[10]))
      found.push(matchFinding(match, 'taxId', 'pattern: cédula with a valid check digit', digits));
  }
  for (const match of line.matchAll(RFC))
    if (isValidRfc(match[1])) found.push(matchFinding(match, 'taxId', 'pattern: RFC', match[1]));
  for (const match of line.matchAll(BEARER)) found.push(matchFinding(match, 'bearerToken', 'pattern: Bearer header'));
  for (const match of line.matchAll(TOKENISH)) found.push(matchFinding(match, 'bearerToken', 'pattern: token'));
  if (namedShortValues)
    for (const match of line.matchAll(SHORT_BY_NAME)) {
      const name = match[1].toLowerCase();
      const digits = /^\d+$/.test(match[2]);
      const isCode = /^(code|codigo|código|otp)$/.test(name) && digits && match[2].length === 6;
      const isPin = /^(nip|pin|default_nip)$/.test(name) && digits && match[2].length === 4;
      const isPassword = /^(password|password_confirmation|contrasena|contraseña|clave)$/.test(name);
      if (isCode || isPin || isPassword) {
        const kind = isCode ? 'smsCode' : isPin ? 'pin' : 'password';
        const at = match.index + match[0].lastIndexOf(match[2]);
        found.push({ kind, how: `pattern: value named ${name}`, index: at, length: match[2].length, value: match[2] });
      }
    }
  return found;
}

/** Where a needle occurs as a whole word of these characters (the lookups of one line). */
function wordHits(line, splitter, needles, how) {
  const found = [];
  if (needles.size === 0) return found;
  let index = 0;
  for (const word of line.split(splitter)) {
    const at = line.indexOf(word, index);
    if (word && needles.has(word)) {
      const { kind, value } = needles.get(word);
      found.push({ kind, how, index: at, length: word.length, value });
    }
    index = at + word.length;
  }
  return found;
}

/** A short secret found only where it is named: `"nip":"1234"`, `code=123456`, "123456 es tu código". */
function shortHits(line, short) {
  const found = [];
  if (short.size === 0) return found;
  const add = (value, index) => {
    const entry = short.get(value);
    if (entry) found.push({ kind: entry.kind, how: 'value, where it is named', index, length: value.length, value });
  };
  for (const match of line.matchAll(SHORT_BY_NAME)) add(match[2], match.index + match[0].lastIndexOf(match[2]));
  for (const match of line.matchAll(SHORT_IN_TEXT_AFTER)) add(match[1], match.index);
  for (const match of line.matchAll(SHORT_IN_TEXT_BEFORE)) add(match[2], match.index + match[0].lastIndexOf(match[2]));
  return found;
}

/**
 * Every finding in one line of a log or a dump. `table` is the dump table the line belongs to
 * (null for a log): reference tables get no short-value checks, the simulated carrier no checks.
 */
export function scanLine(line, needles, { table = null } = {}) {
  if (table === CARRIER_TABLE) return [];
  const reference = table !== null && REFERENCE_TABLE.test(table);
  const found = [
    ...wordHits(line, /[^A-Za-z0-9Ñ&]+/, needles.alnum, 'value'),
    ...wordHits(line, /[^A-Za-z0-9_-]+/, needles.wordish, 'value'),
  ];
  for (const [variant, { kind }] of needles.substrings) {
    let at = line.indexOf(variant);
    while (at >= 0) {
      found.push({ kind, how: 'value', index: at, length: variant.length, value: variant });
      at = line.indexOf(variant, at + variant.length);
    }
  }
  if (!reference) found.push(...shortHits(line, needles.short));
  // Named short values as a pattern only in logs: in the dump, column names like `code` are catalogue codes.
  const patterns = patternFindings(line, { namedShortValues: table === null });
  // A pattern on a value already found by value says nothing new.
  const known = new Set(found.map((hit) => hit.index));
  found.push(...patterns.filter((hit) => !known.has(hit.index)));
  return found;
}

/** The dump's line format (e2e/hygiene-dump.ts): `-- table <name> (<n> rows)`, then `<name> <row JSON>`. */
export function parseDumpLine(line) {
  if (line.startsWith('-- table ')) return { header: line.slice(9).split(' ')[0] };
  const space = line.indexOf(' ');
  if (space < 0) return null;
  return { table: line.slice(0, space), json: line.slice(space + 1) };
}

/**
 * Scans one file: a server log (`kind: 'log'`) or a dump (`kind: 'dump'`). Answers the findings
 * (file:line, kind, how, a masked excerpt) and what was read.
 */
export function scanFile(name, text, needles, { kind }) {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const findings = [];
  let rows = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let table = null;
    if (kind === 'dump') {
      const parsed = parseDumpLine(line);
      if (!parsed || parsed.header) continue;
      table = parsed.table;
      rows += 1;
    }
    for (const hit of scanLine(line, needles, { table })) {
      findings.push({
        file: name,
        line: i + 1,
        kind: hit.kind,
        how: hit.how,
        excerpt: excerpt(line, hit.index, hit.length, maskValue(hit.kind, hit.value)),
      });
    }
  }
  return { findings, lines: lines.length, rows, bytes: Buffer.byteLength(text) };
}

/** The secrets the server sent by SMS, harvested from the dump's outbox (the simulated carrier). */
export function harvestCarrier(dumpText) {
  const found = [];
  for (const line of dumpText.split('\n')) {
    const parsed = parseDumpLine(line);
    if (!parsed || parsed.header || parsed.table !== CARRIER_TABLE) continue;
    const row = JSON.parse(parsed.json);
    if (typeof row.body === 'string')
      for (const secret of secretsOfSms(row.body)) found.push({ ...secret, source: `${CARRIER_TABLE} #${row.id}` });
  }
  return found;
}

/**
 * The encrypted columns of a dump: each value null or the app's ciphertext (never a recorded
 * plaintext, which the ciphertext format rules out), and the tax id's lookup hash a hash.
 */
export function checkEncryptedColumns(name, dumpText) {
  const problems = [];
  const checked = {};
  const tables = new Set();
  const lines = dumpText.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const parsed = parseDumpLine(lines[i]);
    if (!parsed) continue;
    if (parsed.header) {
      tables.add(parsed.header);
      continue;
    }
    const columns = ENCRYPTED_COLUMNS.filter(({ table }) => table === parsed.table);
    if (columns.length === 0) continue;
    const row = JSON.parse(parsed.json);
    for (const { table, column, kind } of columns) {
      const key = `${table}.${column}`;
      checked[key] ??= 0;
      if (!(column in row)) {
        problems.push({ file: name, line: i + 1, kind, how: `column ${key} missing from the dump`, excerpt: '' });
        continue;
      }
      const value = row[column];
      if (value === null) continue;
      checked[key] += 1;
      if (typeof value !== 'string' || !CIPHERTEXT.test(value))
        problems.push({
          file: name,
          line: i + 1,
          kind,
          how: `${key} is not the app's ciphertext (v1|v2.<iv>.<tag>.<ciphertext>)`,
          excerpt: maskValue(kind, String(value)),
        });
    }
    if (parsed.table === 'users' && row.tax_id_hash !== null && !LOOKUP_HASH.test(String(row.tax_id_hash)))
      problems.push({
        file: name,
        line: i + 1,
        kind: 'taxId',
        how: 'users.tax_id_hash is not a keyed hash',
        excerpt: maskValue('taxId', String(row.tax_id_hash)),
      });
  }
  for (const table of new Set(ENCRYPTED_COLUMNS.map(({ table }) => table)))
    if (!tables.has(table))
      problems.push({ file: name, line: 0, kind: 'taxId', how: `table ${table} missing from the dump`, excerpt: '' });
  return { checked, problems };
}

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cedulaCheckDigit, generateRfc } from '@provee/domain';
import { describe, expect, it } from 'vitest';
import { createFieldCipher } from '../src/crypto.js';
import { API_ROOT } from '../src/paths.js';
// @ts-expect-error -- a plain ES module without types (scripts/ runs under node as it is)
import * as scan from '../../../scripts/reliability/hygiene-scan.mjs';

/**
 * Issue 13, suite 7: the hygiene scanner must be able to fail. Each secret of a small ledger is
 * planted in a copy of a clean log or dump and must be found, with its file:line and masked.
 */
const hygieneJs = join(API_ROOT, '../../scripts/reliability/hygiene.mjs');
const cipher = createFieldCipher(randomBytes(32), randomBytes(32));
const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;

const TAX_ID = cedula('4021234567');
const RFC = generateRfc({ name: 'Juan Carlos', lastname: 'Hernández', maternalLastname: 'López', dob: '1971-09-14' });
const TOKEN = `eyJ2IjoxLCJzdWIiOnsia2luZCI6InVzZXIi${'A'.repeat(40)}.${'s'.repeat(43)}`;
const LINK_TOKEN = `eyJ2IjoxLCJzdWIiOnsia2luZCI6InNpZ25lciJ9${'B'.repeat(30)}.${'t'.repeat(43)}`;
const LEDGER = [
  { kind: 'taxId', value: `${TAX_ID.slice(0, 3)}-${TAX_ID.slice(3, 10)}-${TAX_ID.slice(10)}` },
  { kind: 'taxId', value: RFC },
  { kind: 'birthDate', value: '1985-02-28' },
  { kind: 'smsCode', value: '630269' },
  { kind: 'pin', value: '0370' },
  { kind: 'password', value: '583920' },
  { kind: 'staffPassword', value: 'clave-de-analista-e2e' },
  { kind: 'bearerToken', value: TOKEN },
  { kind: 'linkToken', value: LINK_TOKEN },
  { kind: 'proofSession', value: 'f3c1e2d4-abcd-4ef0-9a1b-c2d3e4f5a6b7' },
]
  .map((entry) => JSON.stringify({ ...entry, source: 'test' }))
  .join('\n');

const pino = (fields: Record<string, unknown>) =>
  JSON.stringify({ level: 30, time: 1795444647034, pid: 1, hostname: 'vm', reqId: 'r-12345678', ...fields });
/** A clean log, as the server writes it (URLs masked, secret fields redacted). */
const CLEAN_LOG = [
  pino({ msg: 'Server listening at http://127.0.0.1:42971' }),
  pino({
    req: { method: 'PUT', url: '/api/v1/users/[…]/SK/nip', remoteAddress: '127.0.0.1' },
    msg: 'incoming request',
  }),
  pino({ res: { statusCode: 200 }, responseTime: 12.5, msg: 'request completed' }),
  pino({
    err: { type: 'AppError', errorCode: 'INVALID_CODE', message: 'code does not match' },
    msg: 'request refused',
  }),
  pino({ nip: '[redactado]', password: '[redactado]', msg: 'something with redacted fields' }),
];

const userRow = (taxId: string, dob: string) =>
  `users ${JSON.stringify({
    id: '91b65bb6-da53-478b-a66b-eb7bb795362c',
    phone_e164: '+18097455821',
    next_step: 'ACCOUNT_NIP',
    dob_encrypted: dob,
    tax_id_encrypted: taxId,
    tax_id_hash: cipher.lookupHash(`do:${TAX_ID}`),
  })}`;
const consentRow = (pin: string) =>
  `bureau_consents ${JSON.stringify({ id: 'c6c0d2f4-3a4e-4d55-9a43-6c1e2f0b9d11', pin_verified: true, pin_encrypted: pin })}`;
const CLEAN_DUMP = [
  '-- table bureau_consents (1 rows)',
  consentRow(cipher.encrypt('4821')),
  '-- table bureau_queries (0 rows)',
  '-- table avals (0 rows)',
  '-- table catalog_neighborhoods (1 rows)',
  // A catalogue code that happens to equal a recorded SMS code: public reference data, not a leak.
  `catalog_neighborhoods ${JSON.stringify({ id: 1, code: '630269', name: 'Gazcue', zip_code: '10205' })}`,
  '-- table sms_outbox (1 rows)',
  `sms_outbox ${JSON.stringify({ id: 7, to: '+18097455821', body: '812345 es tu código de Provee. No lo compartas con nadie.' })}`,
  '-- table users (1 rows)',
  userRow(cipher.encrypt(TAX_ID), cipher.encrypt('1985-02-28')),
];

function needles(extra: { kind: string; value: string }[] = []) {
  return scan.buildNeedles([...scan.parseLedger(LEDGER), ...extra]);
}
type Finding = { file: string; line: number; kind: string; how: string; excerpt: string };
const scanLog = (lines: string[]) =>
  scan.scanFile('copy.log', lines.join('\n'), needles(), { kind: 'log' }) as { findings: Finding[] };
const scanDump = (lines: string[]) =>
  scan.scanFile('copy.dump.txt', lines.join('\n'), needles(), { kind: 'dump' }) as { findings: Finding[] };

/** A copy of the clean log with one line planted after the second. */
const planted = (line: string) => [...CLEAN_LOG.slice(0, 2), line, ...CLEAN_LOG.slice(2)];

describe('hygiene scanner (suite 7)', () => {
  it('finds nothing in a clean log and a clean dump', () => {
    expect(scanLog(CLEAN_LOG).findings).toEqual([]);
    expect(scanDump(CLEAN_DUMP).findings).toEqual([]);
    expect(scan.checkEncryptedColumns('copy.dump.txt', CLEAN_DUMP.join('\n')).problems).toEqual([]);
  });

  it.each([
    ['a cédula without dashes, by value', pino({ body: { tax_payer_id: TAX_ID }, msg: 'x' }), 'taxId'],
    [
      'a cédula with dashes, by value',
      pino({ msg: `saved ${TAX_ID.slice(0, 3)}-${TAX_ID.slice(3, 10)}-${TAX_ID.slice(10)}` }),
      'taxId',
    ],
    ['an RFC', pino({ msg: `rfc ${RFC} saved` }), 'taxId'],
    ['the birth date as the form sends it', pino({ dob: '1985-02-28', msg: 'x' }), 'birthDate'],
    ['the birth date written dd/mm/yyyy', pino({ msg: 'born 28/02/1985' }), 'birthDate'],
    ['the birth date in words', pino({ msg: 'nacida el 28 de febrero de 1985' }), 'birthDate'],
    ['an SMS code next to its name', pino({ req: { url: '/api/v1/users/code?code=630269' }, msg: 'x' }), 'smsCode'],
    ['an SMS as it was sent', pino({ msg: 'sms: 630269 es tu código de Provee' }), 'smsCode'],
    ['a PIN in a body', pino({ body: { nip: '0370' }, msg: 'x' }), 'pin'],
    [
      'a password in a body',
      pino({ body: { password: '583920', password_confirmation: '583920' }, msg: 'x' }),
      'password',
    ],
    ['a staff password', pino({ msg: 'login with clave-de-analista-e2e' }), 'staffPassword'],
    ['a bearer token', pino({ req: { headers: { authorization: `Bearer ${TOKEN}` } }, msg: 'x' }), 'bearerToken'],
    ['the payload half of a link token', pino({ msg: `link ${LINK_TOKEN.split('.')[0]}` }), 'linkToken'],
    [
      'a reverse-OTP session key',
      pino({ req: { url: '/home/[…]?sessionUuid=f3c1e2d4-abcd-4ef0-9a1b-c2d3e4f5a6b7' }, msg: 'x' }),
      'proofSession',
    ],
  ])('finds %s, with its file:line, masked', (_name, line, kind) => {
    const { findings } = scanLog(planted(line));
    expect(findings.length, JSON.stringify(findings)).toBeGreaterThan(0);
    expect(findings[0]).toMatchObject({ file: 'copy.log', line: 3, kind });
    for (const secret of [
      TAX_ID,
      RFC,
      '1985',
      '630269',
      '0370',
      '583920',
      'clave-de-analista-e2e',
      TOKEN.slice(20, 60),
    ])
      expect(findings[0]!.excerpt).not.toContain(secret);
  });

  it('backs the ledger up with patterns: an unrecorded cédula, RFC, bearer header, token or named code', () => {
    const other = cedula('0011234567');
    const otherRfc = generateRfc({ name: 'Ana', lastname: 'Ruiz', maternalLastname: 'Soto', dob: '1990-01-31' });
    const lines = [
      pino({ msg: `cedula ${other}` }),
      pino({ msg: `rfc ${otherRfc}` }),
      pino({ msg: `header Bearer ${'x'.repeat(30)}` }),
      pino({ msg: `token eyJhbGciOiJIUzI1NiJ9abcdefgh.eyJzdWIiOiIxMjM0NTY3ODkwIn0abcd` }),
      pino({ body: { code: '111222' }, msg: 'x' }),
      pino({ body: { nip: '9876' }, msg: 'x' }),
    ];
    const { findings } = scanLog(lines);
    expect(findings.map((finding) => finding.line)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(findings.every((finding) => finding.how.startsWith('pattern'))).toBe(true);
  });

  it('a phone number, a wrong check digit, a timestamp, an uuid or a fraction is not a tax id', () => {
    const wrong = `${TAX_ID.slice(0, 10)}${(Number(TAX_ID[10]) + 1) % 10}`;
    const phones = ['18094567890', '18294567891', '18494567892', '18095550101'];
    const unrecorded = cedula('2231234567');
    const lines = [
      pino({ msg: `wrong ${wrong}` }),
      pino({ to: '+18097455821', msg: 'sms sent' }),
      pino({ msg: `numbers ${phones.join(' ')} 1795444647034 91b65bb6-da53-478b-a66b-eb7bb795362c` }),
      // A request's responseTime in milliseconds, whose eleven decimals happen to end in a valid check digit.
      pino({ responseTime: Number(`360.${unrecorded}`), msg: 'request completed' }),
      pino({ msg: `ratio 0.${unrecorded}5` }),
    ];
    expect(scanLog(lines).findings).toEqual([]);
  });

  it('finds a plaintext tax id or birth date planted in an encrypted column, and a plaintext anywhere in a row', () => {
    const dump = [...CLEAN_DUMP.slice(0, -1), userRow(TAX_ID, '1985-02-28')];
    const { problems } = scan.checkEncryptedColumns('copy.dump.txt', dump.join('\n')) as { problems: Finding[] };
    expect(problems.map((problem) => problem.how)).toEqual([
      "users.tax_id_encrypted is not the app's ciphertext (v1|v2.<iv>.<tag>.<ciphertext>)",
      "users.dob_encrypted is not the app's ciphertext (v1|v2.<iv>.<tag>.<ciphertext>)",
    ]);
    expect(problems[0]).toMatchObject({ file: 'copy.dump.txt', line: 10 });
    const plainPin = [CLEAN_DUMP[0], consentRow('4821'), ...CLEAN_DUMP.slice(2)].join('\n');
    expect(
      (scan.checkEncryptedColumns('copy.dump.txt', plainPin) as { problems: Finding[] }).problems.map(
        (problem) => problem.how,
      ),
    ).toEqual(["bureau_consents.pin_encrypted is not the app's ciphertext (v1|v2.<iv>.<tag>.<ciphertext>)"]);
    expect(
      scanDump(dump)
        .findings.map((finding) => finding.kind)
        .sort(),
    ).toEqual(['birthDate', 'taxId']);
  });

  it('harvests what the simulated carrier sent and finds it elsewhere', () => {
    const harvested = scan.harvestCarrier(CLEAN_DUMP.join('\n')) as { kind: string; value: string }[];
    expect(harvested).toEqual([{ kind: 'smsCode', value: '812345', source: 'sms_outbox #7' }]);
    const { findings } = scan.scanFile(
      'copy.log',
      planted(pino({ body: { code: '812345' }, msg: 'x' })).join('\n'),
      needles(harvested),
      { kind: 'log' },
    ) as { findings: Finding[] };
    expect(findings[0]).toMatchObject({ line: 3, kind: 'smsCode', how: 'value, where it is named' });
  });

  it('the command exits non-zero with the offending file:line, masked; and 0 on the clean copy', () => {
    const run = (log: string[]) => {
      const dir = mkdtempSync(join(tmpdir(), 'provee-hygiene-'));
      writeFileSync(join(dir, 'secrets.jsonl'), LEDGER);
      writeFileSync(join(dir, 'do.log'), log.join('\n'));
      writeFileSync(join(dir, 'do.dump.txt'), CLEAN_DUMP.join('\n'));
      return spawnSync(process.execPath, [hygieneJs, '--dir', dir], { encoding: 'utf8' });
    };
    const clean = run(CLEAN_LOG);
    expect(clean.status, clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/findings: 0/);
    expect(clean.stdout).toMatch(/taxId 2, birthDate 1, smsCode 2, pin 1, password 1, staffPassword 1/);
    const dirty = run(planted(pino({ body: { tax_payer_id: TAX_ID }, msg: 'x' })));
    expect(dirty.status).toBe(1);
    expect(dirty.stderr).toMatch(/do\.log:3 {2}taxId {2}value {2}/);
    expect(dirty.stderr).not.toContain(TAX_ID);
  });
});

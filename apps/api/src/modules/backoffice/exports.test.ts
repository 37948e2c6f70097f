import { cedulaCheckDigit } from '@provee/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, bureauConsents, users } from '../../db/schema.js';
import { createApplication, userAuth } from '../../test/factories.js';
import { createPhone } from '../../test/phone.js';
import { registerProvenPhone, registrationData } from '../../test/registration.js';
import { staffSession } from '../../test/staff.js';
import { manualClock, useTestApp } from '../../test/test-app.js';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { csvRows, exportCsv } from './exports.service.js';
import { guarded, type ExportTable } from './exports.store.js';
import { reportRange } from './report-range.js';

const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
const randomCedula = () => cedula(`4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`);
/** The bureau simulator's strong history: a guarantor the policy approves. */
const STRONG_GUARANTOR = cedula('9990000001');
const BOM = '\uFEFF';
/** What a cell reads once parsed: a text a spreadsheet would run as a formula starts with an apostrophe. */
const shown = (value: string | null) => (value === null ? '' : /^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/** RFC 4180: quoted fields may hold commas, doubled quotes and line breaks; records end in CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') field += text[++i];
      else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  expect(field === '' && row.length === 0, 'the last record ends with CRLF').toBe(true);
  return rows;
}

describe('CSV exports', () => {
  const clock = manualClock(new Date('2026-11-09T08:00:00Z'));
  const jumpTo = (iso: string) => clock.advance((Date.parse(iso) - clock().getTime()) / 1000);
  const t = useTestApp({ NIP_PREFILL: 'true', BUREAU_SYNC_WAIT_MS: '10000' }, undefined, { clock });
  let analyst: Awaited<ReturnType<typeof staffSession>>;
  let advisor: { cookie: string };
  /** Every application the test created, with when. */
  const created: { id: string; createdAt: number }[] = [];
  const taxIds: string[] = [];
  /** The applicant registered through the API with an accented name and formulas for UTM values. */
  let registeredId = '';
  const FORMULAS = { utm_source: '=HYPERLINK("http://evil.example","ver")', utm_medium: '@SUM(1+1)', utm_name: '-2+3' };
  const SCRIPT_AGENT = "=cmd|' /C calc'!A0";

  async function application(at: string, nextStep?: string) {
    jumpTo(at);
    const taxId = randomCedula();
    taxIds.push(taxId);
    // The birth date the export must leave out (asserted below).
    const user = await createApplication(t.app, { taxId, dob: '1985-02-28', ...(nextStep ? { nextStep } : {}) });
    created.push({ id: user.id, createdAt: clock().getTime() });
    return user;
  }

  /** The applicant's own consent through the PIN, from a browser whose user agent is a formula. */
  async function consent(at: string) {
    const user = await application(at);
    const headers = { ...userAuth(t.app, user), 'user-agent': SCRIPT_AGENT };
    const sent = await t.app.inject({ method: 'POST', url: `/api/v1/users/${user.id}/SK/nip`, headers });
    const nip = sent.json().data.default_nip;
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${user.id}/SK/nip`,
      headers,
      payload: { nip },
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  /** A guarantor's consent given in person, on an application past the password. */
  async function guarantorConsent(at: string) {
    const user = await application(at, 'INVENTORY');
    const headers = userAuth(t.app, user);
    const phone = createPhone();
    const named = await t.app.inject({
      method: 'POST',
      url: `/api/v1/users/${user.id}/SK/avals`,
      headers,
      payload: { aval_type: 'PARTNER', name: 'Ramón Pérez', phone_number: phone, tax_payer_id: STRONG_GUARANTOR },
    });
    expect(named.statusCode, named.body).toBe(200);
    const url = `/api/v1/users/${user.id}/SK/aval/nip?to=${phone}`;
    const nip = (await t.app.inject({ method: 'POST', url, headers })).json().data.default_nip;
    expect((await t.app.inject({ method: 'PUT', url, headers, payload: { nip } })).statusCode).toBe(200);
  }

  beforeAll(async () => {
    await application('2026-11-09T23:59:59.999Z');
    // Three at the same instant: pages must break ties by id, never repeat or skip one.
    for (let i = 0; i < 3; i++) await application('2026-11-10T00:00:00.000Z');
    jumpTo('2026-11-10T09:00:00.000Z');
    const phone = createPhone();
    const registered = await registerProvenPhone(
      t.app,
      phone,
      registrationData(phone, {
        name: 'José Ángel',
        lastname: 'Muñoz',
        maternal_lastname: 'Peña',
        dob: '1984-05-17',
        marital_status: 'SINGLE',
        ...FORMULAS,
      }),
    );
    expect(registered.statusCode, registered.body).toBe(201);
    registeredId = registered.json().data.user_id;
    created.push({ id: registeredId, createdAt: clock().getTime() });
    await consent('2026-11-10T15:00:00.000Z');
    await guarantorConsent('2026-11-11T16:00:00.000Z');
    await application('2026-11-11T23:59:59.999Z');
    await consent('2026-11-12T00:00:00.000Z');
    analyst = await staffSession(t.app, 'analyst');
    advisor = (await staffSession(t.app, 'advisor')).headers;
  }, 120_000);

  const download = (kind: string, query: string, headers: Record<string, string> = analyst.headers) =>
    t.app.inject({ method: 'GET', url: `/api/backoffice/exports/${kind}.csv?${query}`, headers });
  const inRange = (from: string, to: string) =>
    created
      .filter(
        (row) =>
          row.createdAt >= Date.parse(`${from}T00:00:00Z`) &&
          row.createdAt < Date.parse(`${to}T00:00:00Z`) + 86_400_000,
      )
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));

  it('applications: a UTF-8 CSV download with a BOM, the started applications in order, no tax id or birth date', async () => {
    const res = await download('applications', 'from=2026-11-10&to=2026-11-11');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="solicitudes-2026-11-10-2026-11-11.csv"');
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(res.body.startsWith(BOM)).toBe(true);
    // The header line as the file carries it, after the BOM.
    expect(res.body.slice(1, res.body.indexOf('\r\n'))).toBe(
      'id,phone,name,lastname,maternal_lastname,next_step,status,utm_source,utm_medium,utm_campaign,created_at,updated_at',
    );
    const [, ...rows] = parseCsv(res.body.slice(1));
    const expected = inRange('2026-11-10', '2026-11-11');
    expect(expected.length).toBeGreaterThan(5);
    expect(rows.map((row) => row[0])).toEqual(expected.map((row) => row.id));
    const stored = await t.app.db
      .select()
      .from(users)
      .where(
        inArray(
          users.id,
          expected.map((row) => row.id),
        ),
      );
    for (const row of rows) {
      const user = stored.find((candidate) => candidate.id === row[0])!;
      expect(row).toEqual([
        user.id,
        user.phoneE164, // a plain number in E.164: no formula, so no apostrophe
        user.name ?? '',
        user.lastname ?? '',
        user.maternalLastname ?? '',
        user.nextStep,
        user.status,
        shown(user.utmSource),
        shown(user.utmMedium),
        shown(user.utmName),
        user.createdAt.toISOString(),
        user.updatedAt.toISOString(),
      ]);
    }
    // Accents survive, and what the applicant sent as a formula arrives as text.
    // Found by id: the factories' made-up names may be 'José Ángel' too.
    const registered = rows.find((row) => row[0] === registeredId)!;
    expect(registered[2]).toBe('José Ángel');
    expect(registered.slice(7, 10)).toEqual([
      `'${FORMULAS.utm_source}`,
      `'${FORMULAS.utm_medium}`,
      `'${FORMULAS.utm_name}`,
    ]);
    expect(res.body).toContain('"\'=HYPERLINK(""http://evil.example"",""ver"")"');
    // The factory's birth date and the registered one, and every tax id, stay out.
    for (const secret of ['1985-02-28', '1984-05-17', ...taxIds]) expect(res.body).not.toContain(secret);
  });

  it('reads page by page with keyset pagination: any page size gives the same rows, ties included', async () => {
    const whole = (await download('applications', 'from=2026-11-09&to=2026-11-12')).body;
    expect(parseCsv(whole.slice(1))).toHaveLength(1 + created.length);
    for (const pageSize of [1, 2, 3]) {
      let text = '';
      const stream = exportCsv(
        t.app,
        analyst.member,
        'applications',
        reportRange('2026-11-09', '2026-11-12'),
        pageSize,
      );
      for await (const chunk of stream) text += String(chunk);
      expect(text, `page size ${pageSize}`).toBe(whole);
    }
  });

  it('consents: one row per bureau authorisation given in the range, with its evidence', async () => {
    const res = await download('consents', 'from=2026-11-10&to=2026-11-11');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="consentimientos-2026-11-10-2026-11-11.csv"');
    // The header line as the file carries it, after the BOM.
    expect(res.body.slice(1, res.body.indexOf('\r\n'))).toBe(
      'consent_id,application_id,person_type,aval_id,created_at,ip,peer_ip,forwarded_for,user_agent,pin_verified,bureau_folio,consent_version,consent_text_sha256,authorized_until,folio_cdc',
    );
    const [, ...rows] = parseCsv(res.body.slice(1));
    const all = await t.app.db.select().from(bureauConsents).orderBy(bureauConsents.createdAt, bureauConsents.id);
    const expected = all.filter((consent) => consent.createdAt < new Date('2026-11-12T00:00:00Z'));
    expect(all.length).toBe(expected.length + 1);
    expect(rows).toEqual(
      expected.map((consent) => [
        consent.id,
        consent.userId,
        consent.personType,
        consent.avalId ?? '',
        consent.createdAt.toISOString(),
        consent.ip,
        consent.peerIp ?? '',
        consent.forwardedFor ?? '',
        shown(consent.userAgent),
        String(consent.pinVerified),
        consent.bureauFolio,
        consent.consentVersion,
        consent.consentTextSha256,
        consent.authorizedUntil.toISOString(),
        '', // no NIP audit: the simulator's bureau asks for none
      ]),
    );
    expect(rows.map((row) => row[2])).toEqual(['titular', 'collateral']);
    expect(rows[1]![3]).toMatch(/^[0-9a-f-]{36}$/);
    expect(rows[0]![8]).toBe(`'${SCRIPT_AGENT}`);
    expect(res.body).not.toContain('Por este medio autorizo');
  });

  it('each export is recorded on the staff member’s audit chain with its kind, range and rows', async () => {
    const before = await t.app.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.applicationId, `staff:${analyst.member.id}`));
    await download('consents', 'from=2026-11-11&to=2026-11-12');
    const events = await t.app.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.applicationId, `staff:${analyst.member.id}`), eq(auditEvents.type, 'backoffice.export')),
      )
      .orderBy(asc(auditEvents.id));
    expect(events.length).toBe(before.filter((event) => event.type === 'backoffice.export').length + 1);
    expect(events.at(-1)).toMatchObject({
      actor: `staff:${analyst.member.id}`,
      payload: { kind: 'consents', from: '2026-11-11', to: '2026-11-12', rows: 2, complete: true },
    });
  });

  const DAY = reportRange('2026-11-10', '2026-11-10');
  /** The numbers 1…count as a table of that day (stable ids: pages by keyset see each row once). */
  const numbers = (count: number): ExportTable => ({
    from: `(select n, '2026-11-10T00:00:00Z'::timestamptz + n * interval '1 millisecond' as created_at,
      ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid as id from generate_series(1, ${count}) as n) as t`,
    createdAt: 't.created_at',
    id: 't.id',
    columns: [{ header: 'n', sql: 't.n::text' }],
  });

  /** One column of texts exported the way every export is (COPY on PostgreSQL, pages on PGlite). */
  async function exported(values: (string | null)[]): Promise<string> {
    const literal = (value: string | null) => (value === null ? 'null' : `'${value.replace(/'/g, "''")}'`);
    const rows = values.map(
      (value, i) =>
        `(${literal(value)}::text, '2026-11-10T00:00:00Z'::timestamptz + ${i} * interval '1 second', '00000000-0000-4000-8000-${String(i).padStart(12, '0')}'::uuid)`,
    );
    const table: ExportTable = {
      from: `(values ${rows.join(', ')}) as t(v, created_at, id)`,
      createdAt: 't.created_at',
      id: 't.id',
      columns: [{ header: 'v', sql: guarded('t.v') }],
    };
    let text = '';
    for await (const chunk of csvRows(t.app.database, table, DAY, 2, () => {})) text += String(chunk);
    return text;
  }

  it('neutralises every formula start (= + - @ tab CR) and quotes per RFC 4180; plain numbers stay numbers', async () => {
    const formulas = ['=1+1', '+1+cmd|x', '-1-A1', '@A1', '\tx', '\rx'];
    expect(await exported(formulas)).toBe(["'=1+1", "'+1+cmd|x", "'-1-A1", "'@A1", "'\tx", `"'\rx"`, ''].join('\r\n'));
    // A phone in E.164 or a negative amount is a number to a spreadsheet, not a formula.
    expect(await exported(['+18095551234', '-250', '-12.5'])).toBe('+18095551234\r\n-250\r\n-12.5\r\n');
    // A line break inside a quoted cell stays a bare LF; the record ends in CRLF.
    expect(await exported(['Peña, "la tienda"\nbarrio', 'a=b'])).toBe('"Peña, ""la tienda""\nbarrio"\r\na=b\r\n');
    // A null is an empty cell, an empty text "" (as PostgreSQL's COPY writes them).
    expect(await exported([null, '', 'x'])).toBe('\r\n""\r\nx\r\n');
  });

  it('a download cut short stops the reading and gives its connection back, again and again', async () => {
    const table = numbers(100_000);
    // More cut downloads than the pool has connections (10): a leaked one would hang the last ones.
    for (let i = 0; i < 12; i++) {
      let rows = 0;
      for await (const chunk of csvRows(t.app.database, table, DAY, 5000, (n) => (rows = n))) {
        expect(String(chunk).length).toBeGreaterThan(0);
        break;
      }
      expect(rows).toBeLessThan(200_000);
    }
    const [row] = (await t.app.database.executeSql('select 1 as one')).rows as { one: number }[];
    expect(Number(row!.one)).toBe(1);
  });

  it('a slow reader (a compressed download, a phone) leaves every connection usable after it', async () => {
    const table = numbers(20_000);
    // More slow reads than the pool has connections (10): one left stuck would hang the last ones.
    for (let i = 0; i < 12; i++) {
      let rows = 0;
      for await (const _ of csvRows(t.app.database, table, DAY, 5000, (n) => (rows = n)))
        await new Promise((resolve) => setTimeout(resolve, 1));
      expect(rows).toBe(20_000);
    }
    const [row] = (await t.app.database.executeSql('select 1 as one')).rows as { one: number }[];
    expect(Number(row!.one)).toBe(1);
  });

  it('is compressed as the client accepts (brotli, else gzip), the same CSV once decompressed', async () => {
    const plain = await download('applications', 'from=2026-11-09&to=2026-11-12');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const asked = (encoding: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/backoffice/exports/applications.csv?from=2026-11-09&to=2026-11-12',
        headers: { ...analyst.headers, 'accept-encoding': encoding },
      });
    const gzipped = await asked('gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gzipped.rawPayload).toString('utf8')).toBe(plain.body);
    const brotli = await asked('gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString('utf8')).toBe(plain.body);
  });

  it('401 without a session, 403 for an advisor, 400 for a bad range', async () => {
    for (const kind of ['applications', 'consents']) {
      expect((await download(kind, 'from=2026-11-10&to=2026-11-11', {})).statusCode).toBe(401);
      const forbidden = await download(kind, 'from=2026-11-10&to=2026-11-11', advisor);
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json().readable_message).toBe('Tu rol no permite esta acción.');
      const backwards = await download(kind, 'from=2026-11-11&to=2026-11-10');
      expect(backwards.statusCode).toBe(400);
      expect(backwards.json().readable_message).toBe('La fecha final debe ser igual o posterior a la fecha inicial.');
      expect((await download(kind, 'from=2026-11-10')).statusCode).toBe(400);
    }
  });
});

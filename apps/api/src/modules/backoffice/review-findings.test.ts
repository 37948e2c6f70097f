import { cedulaCheckDigit, formatCedula, generateRfc } from '@provee/domain';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { seedApplication } from '../../test/factories.js';
import { consentWithOfferedPin } from '../../test/signer.js';
import { createPhone } from '../../test/phone.js';
import { createTestApp, manualClock, type TestApp, useTestApp } from '../../test/test-app.js';
import { createStaffMember, STAFF_PASSWORD, staffSession } from '../../test/staff.js';

/**
 * What an adversarial review of the back office found (advisors reading sensitive data through a
 * side door, a lock-out that parallel guesses got past, dates that answered 500, search text in the
 * logs), kept as regression tests: each failed before its fix.
 */
const STANDARD_FONTS = new URL('../../../../../node_modules/pdfjs-dist/standard_fonts/', import.meta.url).pathname;
const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
let serial = 0;
const nextTen = () => `5${String((serial += 1) + Math.floor(Math.random() * 1e6) * 100).padStart(9, '0')}`.slice(0, 10);

async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl: STANDARD_FONTS, verbosity: 0 })
    .promise;
  const texts: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  await pdf.destroy();
  return texts.join('\n');
}

type Session = Awaited<ReturnType<typeof staffSession>>;

describe('back office: review findings (DO)', () => {
  let t: TestApp;
  const clock = manualClock(new Date('2026-11-23T12:00:00Z'));
  let analyst: Session;
  let advisor: Session;
  beforeAll(async () => {
    t = await createTestApp({ NIP_PREFILL: 'true', BUREAU_SYNC_WAIT_MS: '2000' }, undefined, { clock });
  });
  beforeEach(async () => {
    analyst = await staffSession(t.app, 'analyst');
    advisor = await staffSession(t.app, 'advisor');
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: `/api/backoffice${url}`, headers });
  // Each guess from an address of its own: the per-address limit (20) would otherwise lock the
  // file's later logins, which all come from the test's 127.0.0.1; what is tested is the account's cap.
  let guessIp = 0;
  const login = (email: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/backoffice/session',
      payload: { email, password },
      remoteAddress: `192.0.2.${++guessIp}`,
    });

  /** A shopkeeper through the PIN consent: pre-approved, with a bureau report and a decision. */
  async function throughConsent(taxId: string) {
    const user = await seedApplication(t.app, {
      phone: createPhone(),
      nextStep: 'ACCOUNT_NIP',
      complete: { taxId, name: 'Rosa', lastname: 'Prueba' },
    });
    const res = await consentWithOfferedPin(t.app, { id: user.id, phone: user.phoneE164.slice(2) });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return user;
  }

  it('an advisor does not get the unmasked tax id through the contract PDF', async () => {
    const taxId = cedula(nextTen());
    const user = await throughConsent(taxId);
    const link = await t.app.inject({
      method: 'POST',
      url: `/api/backoffice/applications/${user.id}/contract-links`,
      headers: analyst.headers,
      payload: { person_type: 'titular' },
    });
    expect(link.statusCode, link.body).toBe(200);
    // Control: the analyst's copy names the shopkeeper's cédula.
    const forAnalyst = await get(`/applications/${user.id}/contract`, analyst.headers);
    expect(await pdfText(forAnalyst.rawPayload)).toContain(formatCedula(taxId));

    const forAdvisor = await get(`/applications/${user.id}/contract`, advisor.headers);
    if (forAdvisor.statusCode === 200) expect(await pdfText(forAdvisor.rawPayload)).not.toContain(formatCedula(taxId));
    else expect(forAdvisor.statusCode).toBe(403);
  });

  it('an advisor does not get the bureau report’s figures through the decision rules', async () => {
    const user = await throughConsent(cedula(nextTen()));
    const report = (await get(`/applications/${user.id}`, analyst.headers)).json().data.bureau_queries[0].report as {
      score: number;
      delinquencies: number;
      recent_inquiries: number;
    };
    expect(report.score).toEqual(expect.any(Number));
    const asAdvisor = (await get(`/applications/${user.id}`, advisor.headers)).json().data;
    expect(asAdvisor.bureau_queries[0].report).toBeNull(); // the report itself is hidden…
    const value = (rule: string) =>
      (asAdvisor.decisions[0].rules as { rule: string; value: unknown }[]).find((r) => r.rule === rule)?.value;
    // …so its figures must not come back as the rules' values.
    expect(value('min_score')).not.toBe(report.score);
    expect(value('max_delinquencies')).not.toBe(report.delinquencies);
    expect(value('max_recent_inquiries')).not.toBe(report.recent_inquiries);
  });

  it('parallel guesses: once the account locks, the right password is answered like the wrong ones', async () => {
    const member = await createStaffMember(t.app, 'analyst');
    const verify = vi.spyOn(t.app.passwords, 'verify');
    // Ten wrong guesses and, last, the right one, all at once (the cap is five).
    const guesses = [...Array.from({ length: 10 }, (_, i) => `mala-clave-numero-${i}`), STAFF_PASSWORD];
    const results = await Promise.all(guesses.map((guess) => login(member.email, guess)));
    const statuses = results.map((r) => r.statusCode);
    // Refused attempts are checked against a dummy hash (the same time); count the account's own.
    const checked = verify.mock.calls.filter(([, stored]) => stored === member.passwordHash).length;
    verify.mockRestore();
    // However many guesses arrive at once, no more passwords are checked than the cap allows.
    expect(checked).toBeLessThanOrEqual(5);
    // The e-mail locked during the burst; the right password must not stand out (a lone 401 among
    // 429s tells the attacker which guess was right, so the lock-out did not cap the guessing).
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect([200, 429]).toContain(statuses[statuses.length - 1]);
  });

  it('impossible or out-of-range dates are a 400 with a Spanish message, never a 500 or a silent shift', async () => {
    const answer = async (url: string) => {
      try {
        const res = await get(url, analyst.headers);
        return {
          status: res.statusCode,
          message: String(res.headers['content-type']).includes('json') ? res.json().readable_message : null,
        };
      } catch (error) {
        return { status: `stream aborted (${String(error)})`, message: null };
      }
    };
    const urls = [
      '/applications?from=2026-13-45',
      '/applications?from=2026-02-31',
      '/applications?from=0000-01-01',
      '/applications?to=9999-12-31',
      '/funnel?from=0000-01-01&to=0000-01-02',
      '/funnel?from=9999-12-30&to=9999-12-31',
      '/exports/applications.csv?from=0000-01-01&to=0000-01-02',
      '/exports/consents.csv?from=9999-12-30&to=9999-12-31',
    ];
    const answers = Object.fromEntries(await Promise.all(urls.map(async (url) => [url, await answer(url)] as const)));
    for (const url of urls) {
      expect(answers[url]!.status, url).toBe(400);
      expect(answers[url]!.message, url).toMatch(/fecha/i);
    }
  });

  it('a name typed in the search box does not reach the logs', async () => {
    const before = t.logs.length;
    const res = await get('/applications?q=Altagracia%20Prueba', analyst.headers);
    expect(res.statusCode).toBe(200);
    const lines = t.logs.slice(before).map((line) => JSON.stringify(line));
    expect(lines.some((line) => line.includes('Altagracia'))).toBe(false);
  });
});

describe('back office: review findings (MX)', () => {
  const t = useTestApp({ COUNTRY: 'mx' });

  it('an advisor cannot rebuild the masked RFC and birth date from the detail and the exact-RFC search', async () => {
    const person = { name: 'Guadalupe', lastname: 'Hernández', maternalLastname: 'Núñez', dob: '1987-09-14' };
    const rfc = generateRfc(person);
    const user = await seedApplication(t.app, {
      phone: createPhone(),
      nextStep: 'ACCOUNT_NIP',
      complete: { taxId: rfc, dob: person.dob, name: person.name, lastname: person.lastname },
    });
    const advisor = await staffSession(t.app, 'advisor');
    const get = (url: string) =>
      t.app.inject({ method: 'GET', url: `/api/backoffice${url}`, headers: advisor.headers });
    const seen = (await get(`/applications/${user.id}`)).json().data;
    expect(seen.sensitive_visible).toBe(false);
    // What the advisor is shown: the names, the RFC's last three characters and the day of birth.
    const tail = (seen.person.tax_id as string).slice(-3);
    const day = (seen.person.birth_date as string).slice(-2);
    let recovered: string | undefined;
    for (let year = 1940; year <= 2008 && !recovered; year++) {
      for (let month = 1; month <= 12 && !recovered; month++) {
        const dob = `${year}-${String(month).padStart(2, '0')}-${day}`;
        const candidate = generateRfc({
          name: seen.person.name,
          lastname: seen.person.lastname,
          maternalLastname: seen.person.maternal_lastname,
          dob,
        });
        if (candidate.slice(-3) !== tail) continue; // the shown check digit rules most months out offline
        const found = (await get(`/applications?q=${candidate}`)).json().data;
        if (found.items.some((item: { id: string }) => item.id === user.id)) recovered = `${candidate} (${dob})`;
      }
    }
    expect(recovered).toBeUndefined();
  });
});

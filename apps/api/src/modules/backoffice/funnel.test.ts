import { crc32, deflateSync } from 'node:zlib';
import { cedulaCheckDigit } from '@provee/domain';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPhone } from '../../test/phone.js';
import { CATALOGUE_ADDRESS, registerProvenPhone, registrationData } from '../../test/registration.js';
import { signingLinkFromSms, uploadPhotos } from '../../test/signer.js';
import { staffSession } from '../../test/staff.js';
import { manualClock, useTestApp } from '../../test/test-app.js';
import { answerSimulatedChecks } from '../../test/jobs.js';

const cedula = (ten: string) => `${ten}${cedulaCheckDigit(ten)}`;
const randomCedula = () => cedula(`4${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`);
/** The bureau simulator's delinquent history: the policy refuses it. */
const DELINQUENT = cedula('9990000002');

/** A real PNG (a diagonal stroke on transparent), what a signature canvas or a phone photo could be. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const frame = Buffer.alloc(8);
    frame.writeUInt32BE(data.length, 0);
    frame.writeUInt32BE(crc32(body), 4);
    return Buffer.concat([frame.subarray(0, 4), body, frame.subarray(4)]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const raw = Buffer.alloc((1 + width * 4) * height);
  for (let y = 0; y < height; y++)
    raw.set([20, 30, 90, 255], y * (1 + width * 4) + 1 + Math.floor((y * width) / height) * 4);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const STEPS = [
  ['registration_started', 'Registro iniciado'],
  ['tax_id', 'Identificación fiscal'],
  ['business_address', 'Dirección del negocio'],
  ['business', 'Datos del negocio'],
  ['nip_sent', 'NIP enviado'],
  ['consent', 'Consulta autorizada'],
  ['pre_approved', 'Preaprobado'],
  ['password', 'Contraseña creada'],
  ['contract_signed', 'Contrato firmado'],
] as const;

/** An applicant the test builds: when registration started, the source, how far they go. */
interface Plan {
  start: string;
  utm: string | null;
  /** The last step index reached (6 = pre-approved, the decision right after the consent). */
  until: number;
  /** Seconds between steps (varied per step so medians are not all alike). */
  gap: number;
  refused?: boolean;
}
interface Journey extends Plan {
  /** When each step happened, by step index (ms); what the funnel must find on its own. */
  times: (number | undefined)[];
}

const PLANS: Plan[] = [
  { start: '2026-11-01T23:59:59.999Z', utm: 'radio', until: 5, gap: 50 },
  { start: '2026-11-02T00:00:00.000Z', utm: 'radio', until: 7, gap: 60 },
  { start: '2026-11-02T15:00:00.000Z', utm: null, until: 0, gap: 0 },
  { start: '2026-11-03T09:00:00.000Z', utm: 'facebook', until: 1, gap: 30 },
  { start: '2026-11-03T10:00:00.000Z', utm: 'facebook', until: 4, gap: 90 },
  { start: '2026-11-03T11:00:00.000Z', utm: 'radio', until: 5, gap: 20, refused: true },
  { start: '2026-11-03T12:00:00.000Z', utm: 'radio', until: 8, gap: 120 },
  { start: '2026-11-03T14:00:00.000Z', utm: 'radio', until: 6, gap: 10 },
  { start: '2026-11-04T08:00:00.000Z', utm: 'facebook', until: 7, gap: 75 },
  { start: '2026-11-04T23:59:59.999Z', utm: 'radio', until: 3, gap: 45 },
  { start: '2026-11-05T00:00:00.000Z', utm: 'radio', until: 2, gap: 40 },
];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The funnel computed from the test's own records of what each applicant did. */
function expectedFunnel(journeys: Journey[], from: string, to: string, utm?: string) {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`) + 86_400_000;
  const cohort = journeys.filter(
    (j) => Date.parse(j.start) >= start && Date.parse(j.start) < end && (utm === undefined || j.utm === utm),
  );
  const reached = (index: number) => cohort.filter((j) => j.times[index] !== undefined).length;
  return STEPS.map(([key, label], index) => {
    const both = cohort
      .filter((j) => index > 0 && j.times[index] !== undefined && j.times[index - 1] !== undefined)
      .map((j) => (j.times[index]! - j.times[index - 1]!) / 1000);
    return {
      key,
      label,
      reached: reached(index),
      conversion: index > 0 && reached(index - 1) > 0 ? reached(index) / reached(index - 1) : null,
      median_seconds_from_previous: both.length > 0 ? median(both) : null,
    };
  });
}

describe('back-office funnel', () => {
  const clock = manualClock(new Date('2026-11-01T08:00:00Z'));
  const t = useTestApp({ NIP_PREFILL: 'true', BUREAU_SYNC_WAIT_MS: '10000' }, undefined, { clock });
  const journeys: Journey[] = [];
  let analyst: { cookie: string };
  let advisor: { cookie: string };

  /** Drives one applicant through the public API on the test's clock, recording when each step happened. */
  async function journey(plan: Plan, salesRangeId: number): Promise<Journey> {
    clock.advance((Date.parse(plan.start) - clock().getTime()) / 1000);
    const times: (number | undefined)[] = [];
    const phone = createPhone();
    const registered = await registerProvenPhone(
      t.app,
      phone,
      registrationData(phone, {
        name: 'Ana Lucía',
        lastname: 'Núñez',
        maternal_lastname: 'Peña',
        dob: '1984-05-17',
        marital_status: 'SINGLE',
        utm_source: plan.utm,
      }),
    );
    expect(registered.statusCode, registered.body).toBe(201);
    times[0] = clock().getTime();
    const { user_id: id, authentication } = registered.json().data;
    const auth = { authorization: `Bearer ${authentication.access_token}` };
    const base = `/api/v1/users/${id}/SK`;
    const step = async (index: number, request: () => Promise<LightMyRequestResponse>, status = 200) => {
      clock.advance(plan.gap * (1 + (index % 3)));
      const res = await request();
      expect(res.statusCode, res.body).toBe(status);
      times[index] = clock().getTime();
      return res;
    };
    const call = (method: 'POST' | 'PUT', path: string, payload?: object) =>
      t.app.inject({ method, url: `${base}${path}`, headers: auth, ...(payload ? { payload } : {}) });

    const taxId = plan.refused ? DELINQUENT : randomCedula();
    if (plan.until >= 1) await step(1, () => call('POST', '/tax_info', { tax_payer_id: taxId }));
    if (plan.until >= 2) await step(2, () => call('POST', '/businesses/address', CATALOGUE_ADDRESS));
    const business = { name: 'Colmado Doña Ana', business_type: 'Colmado', business_type_other: '' };
    const sales = { sales_average_range_id: salesRangeId, business_age: 3 };
    if (plan.until >= 3) await step(3, () => call('POST', '/businesses', { ...business, ...sales }));
    let nip = '';
    if (plan.until >= 4) nip = (await step(4, () => call('POST', '/nip'))).json().data.default_nip;
    if (plan.until >= 5) {
      await step(5, () => call('PUT', '/nip', { nip }), plan.refused ? 422 : 200);
      // The bureau answers while the shopkeeper waits: the pre-approval is the same instant.
      if (!plan.refused) times[6] = times[5];
    }
    if (plan.until >= 7)
      await step(7, () => call('PUT', '/password', { password: '583920', password_confirmation: '583920' }));
    if (plan.until >= 8) {
      clock.advance(plan.gap);
      // An analyst sends the signing link from the back office; the link itself travels only by SMS.
      const { token } = await signingLinkFromSms(t.app, id);
      const sent = await uploadPhotos(t.app, { userId: id, token });
      expect(sent.statusCode, sent.body).toBe(200);
      clock.advance(t.app.config.IDENTITY_SIMULATOR_DELAY_MS / 1000 + 1);
      await answerSimulatedChecks(t.app);
      await step(8, () =>
        t.app.inject({
          method: 'PUT',
          url: `/api/v1/users/SK/${id}/contract`,
          headers: { authorization: `Bearer ${token}` },
          payload: { person_type: 'titular', signature: png(280, 120).toString('base64') },
        }),
      );
    }
    return { ...plan, times };
  }

  beforeAll(async () => {
    const ranges = (await t.app.inject({ method: 'GET', url: '/api/v1/sales-ranges' })).json().data.ranges;
    for (const plan of PLANS) journeys.push(await journey(plan, ranges[2].id));
    analyst = (await staffSession(t.app, 'analyst')).headers;
    advisor = (await staffSession(t.app, 'advisor')).headers;
  }, 240_000);

  const funnel = (query: string, headers: Record<string, string> = analyst) =>
    t.app.inject({ method: 'GET', url: `/api/backoffice/funnel?${query}`, headers });

  it('counts, conversions and medians match what the applicants did, step by step', async () => {
    const res = await funnel('from=2026-11-02&to=2026-11-04');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      from: '2026-11-02',
      to: '2026-11-04',
      utm_source: null,
      steps: expectedFunnel(journeys, '2026-11-02', '2026-11-04'),
      // Nobody stopped long enough to be reminded (modules/reminders' own tests count them).
      reminders: [],
    });
    // The journeys cover every step, and a refusal stops the count at the consent.
    const steps = res.json().data.steps as { reached: number }[];
    expect(steps.every((step) => step.reached > 0)).toBe(true);
    expect(steps[6]!.reached).toBeLessThan(steps[5]!.reached);
  });

  it('filters by utm_source', async () => {
    for (const source of ['radio', 'facebook', 'tv']) {
      const res = await funnel(`from=2026-11-02&to=2026-11-04&utm_source=${source}`);
      expect(res.json().data).toMatchObject({
        utm_source: source,
        steps: expectedFunnel(journeys, '2026-11-02', '2026-11-04', source),
      });
    }
    const none = await funnel('from=2026-11-02&to=2026-11-04&utm_source=tv');
    expect(none.json().data.steps[0]).toMatchObject({
      reached: 0,
      conversion: null,
      median_seconds_from_previous: null,
    });
    expect(none.json().data.steps[1]).toMatchObject({
      reached: 0,
      conversion: null,
      median_seconds_from_previous: null,
    });
  });

  it('a day runs from 00:00 UTC to the next midnight: the edges fall on the right side', async () => {
    for (const [from, to] of [
      ['2026-11-01', '2026-11-01'],
      ['2026-11-02', '2026-11-02'],
      ['2026-11-04', '2026-11-04'],
      ['2026-11-05', '2026-11-05'],
      ['2026-11-01', '2026-11-05'],
    ] as const) {
      const res = await funnel(`from=${from}&to=${to}`);
      expect(res.json().data.steps, `${from}..${to}`).toEqual(expectedFunnel(journeys, from, to));
    }
    // Each single-day edge holds exactly its own applicants (the one at 23:59:59.999 and at 00:00).
    expect((await funnel('from=2026-11-01&to=2026-11-01')).json().data.steps[0].reached).toBe(1);
    expect((await funnel('from=2026-11-05&to=2026-11-05')).json().data.steps[0].reached).toBe(1);
  });

  it('400 with a Spanish message for a backwards, too long or impossible range', async () => {
    const refused = [
      ['from=2026-11-04&to=2026-11-02', 'La fecha final debe ser igual o posterior a la fecha inicial.'],
      ['from=2026-01-01&to=2027-01-02', 'El periodo puede abarcar como máximo 366 días.'],
      ['from=2026-02-30&to=2026-03-02', 'La fecha inicial no existe, revísala.'],
    ];
    for (const [query, message] of refused) {
      const res = await funnel(query!);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', readable_message: message });
    }
    expect((await funnel('from=2026-01-01&to=2027-01-01')).statusCode).toBe(200);
    const malformed = await funnel('from=01/11/2026&to=2026-11-02');
    expect(malformed.statusCode).toBe(400);
    expect(JSON.stringify(malformed.json())).toContain('AAAA-MM-DD');
  });

  it('401 without a staff session, 403 for an advisor', async () => {
    const anonymous = await funnel('from=2026-11-02&to=2026-11-04', {});
    expect(anonymous.statusCode).toBe(401);
    const forbidden = await funnel('from=2026-11-02&to=2026-11-04', advisor);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({ code: 'FORBIDDEN', readable_message: 'Tu rol no permite esta acción.' });
  });
});

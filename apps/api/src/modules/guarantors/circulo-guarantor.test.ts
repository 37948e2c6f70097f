// A guarantor in Mexico with Círculo de Crédito as the bureau, against its stand-in over real HTTP
// (apps/api/test/stand-ins/circulo): named with their surnames and home address, their query
// signed and sent as Círculo files people, decided by the policy's guarantor rules, and the NIP
// audit sent with the code they returned (the PIN, or the nonce their own phone sent). Both databases.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { avals, bureauConsentAudits, bureauQueries, creditDecisions } from '../../db/schema.js';
import { generateRfc } from '@provee/domain';
import { circuloRfc, useCirculoTestApp } from '../../test/circulo.js';
import { createApplication, lastSmsPin, userAuth } from '../../test/factories.js';
import { createPhone } from '../../test/phone.js';
import { manualClock } from '../../test/test-app.js';
import { runConsentAuditJobs } from '../../test/jobs.js';

/** A home in Toluca: in the catalogue, outside the area the lender serves (a guarantor may live anywhere). */
const HOME = {
  zip_code: '50000',
  state: 'México',
  city: 'Toluca',
  neighborhood: 'Toluca Centro',
  street_name: 'Avenida Hidalgo',
  street_number: '301',
};

describe('Círculo de Crédito: a guarantor named, asked, decided and audited', () => {
  const clock = manualClock(new Date('2026-11-25T16:00:00Z'));
  const t = useCirculoTestApp({ BUREAU_SYNC_WAIT_MS: '5000' }, { clock });

  /** A shopkeeper past the password (INVENTORY), able to name a partner. */
  async function shopkeeper() {
    const user = await createApplication(t.app, { taxId: circuloRfc('800101'), nextStep: 'INVENTORY' });
    return { user, auth: userAuth(t.app, user) };
  }
  type Shopkeeper = Awaited<ReturnType<typeof shopkeeper>>;

  const name = (who: Shopkeeper, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/users/${who.user.id}/SK/avals`,
      headers: who.auth,
      payload: { aval_type: 'PARTNER', phone_number: createPhone('mx'), ...body },
    });
  /** The RFC of the guarantor below born on the stand-in's person `datePart` (yymmdd, 1900s): valid, check digit and all. */
  const guarantorRfc = (datePart: string) =>
    generateRfc({
      name: 'José Ramiro',
      lastname: 'Gutiérrez',
      maternalLastname: 'Hernández',
      dob: `19${datePart.slice(0, 2)}-${datePart.slice(2, 4)}-${datePart.slice(4, 6)}`,
    });
  const person = (rfc: string) => ({
    name: 'José Ramiro',
    lastname: 'Gutiérrez',
    maternal_lastname: 'Hernández',
    tax_payer_id: rfc,
    address: HOME,
  });
  const outbox = async (phone: string) =>
    (await t.app.inject({ method: 'GET', url: `/dev/outbox.json?to=%2B52${phone}` })).json().messages as {
      body: string;
    }[];
  const queryOfAval = async (avalId: string) => {
    const [aval] = await t.app.db.select().from(avals).where(eq(avals.id, avalId));
    const rows = await t.app.db.select().from(bureauQueries).where(eq(bureauQueries.userId, aval!.userId));
    return { aval: aval!, query: rows.at(-1)! };
  };

  /** A partner of the stand-in's person `datePart`, named and consented with the PIN typed on the shopkeeper's phone. */
  async function consentedByPin(datePart: string, beforeConsent?: (avalId: string) => Promise<unknown>) {
    const who = await shopkeeper();
    const rfc = guarantorRfc(datePart);
    const phone = createPhone('mx');
    const named = await name(who, { ...person(rfc), phone_number: phone });
    expect(named.statusCode, named.body).toBe(200);
    const avalId = named.json().data.aval.id as string;
    await beforeConsent?.(avalId);
    const url = `/api/v1/users/${who.user.id}/SK/aval/nip?to=${phone}`;
    expect((await t.app.inject({ method: 'POST', url, headers: who.auth })).statusCode).toBe(200);
    const pin = await lastSmsPin(t.app, phone);
    const confirmed = await t.app.inject({ method: 'PUT', url, headers: who.auth, payload: { nip: pin } });
    return { who, rfc, phone, avalId, pin, confirmed };
  }

  it('naming a guarantor asks for the surnames, an RFC with a birth date and the home address, in Spanish', async () => {
    const who = await shopkeeper();
    const bare = await name(who, { name: 'José Ramiro Gutiérrez', tax_payer_id: guarantorRfc('800101') });
    expect(bare.statusCode).toBe(400);
    const issues = bare.json().issues as { field: string; message: string }[];
    expect(issues).toEqual(
      expect.arrayContaining([
        { field: 'body.lastname', message: '* Escribe el apellido paterno del aval.' },
        { field: 'body.address', message: '* Escribe el domicilio del aval: el buró de crédito lo pide.' },
      ]),
    );
    const nowhere = await name(who, { ...person(guarantorRfc('800101')), address: { ...HOME, city: 'Springfield' } });
    expect(nowhere.statusCode).toBe(400);
    expect(nowhere.json().issues).toEqual([
      { field: 'body.address.city', message: 'No encontramos este municipio, elígelo de la lista.' },
    ]);
    const wrongZip = await name(who, { ...person(guarantorRfc('800101')), address: { ...HOME, zip_code: '55000' } });
    expect(wrongZip.json().issues).toEqual([
      { field: 'body.address.zip_code', message: '* El código postal no corresponde a la colonia.' },
    ]);
    // Nothing was named by the refused attempts; the application still waits for its partner.
    expect(await t.app.db.select().from(avals).where(eq(avals.userId, who.user.id))).toEqual([]);
  });

  it('a guarantor who consents with their PIN is asked as Círculo files them, approved, and audited with that PIN', async () => {
    const { who, rfc, avalId, pin, confirmed } = await consentedByPin('800101');
    expect(confirmed.statusCode).toBe(200);
    const { aval, query } = await queryOfAval(avalId);
    expect(aval).toMatchObject({
      name: 'José Ramiro Gutiérrez Hernández',
      givenNames: 'José Ramiro',
      lastname: 'Gutiérrez',
      status: 'APPROVED',
    });
    expect(aval.addressEncrypted).not.toContain('Hidalgo'); // the home address is kept encrypted
    expect(query).toMatchObject({ status: 'DONE', provider: 'circulo' });
    expect(t.standIn.queries.get(String(query.report!.folio))?.body).toEqual({
      apellidoPaterno: 'GUTIERREZ',
      apellidoMaterno: 'HERNANDEZ',
      primerNombre: 'JOSE',
      segundoNombre: 'RAMIRO',
      fechaNacimiento: '1980-01-01',
      RFC: rfc,
      nacionalidad: 'MX',
      domicilio: {
        direccion: 'AVENIDA HIDALGO 301',
        coloniaPoblacion: 'TOLUCA CENTRO',
        delegacionMunicipio: 'TOLUCA',
        ciudad: 'TOLUCA',
        estado: 'MEX',
        CP: '50000',
      },
    });
    const [decision] = await t.app.db.select().from(creditDecisions).where(eq(creditDecisions.avalId, avalId));
    expect(decision).toMatchObject({ result: 'APPROVED', bureauReportFolio: query.report!.folio });
    expect(decision!.rules.map((rule) => rule.rule)).toContain('guarantor_min_score');

    // Corrected after the query: the audit still sends the person as the bureau was asked.
    await t.app.db.update(avals).set({ lastname: 'Otro' }).where(eq(avals.id, avalId));
    expect((await runConsentAuditJobs(t.app)).ran).toBeGreaterThanOrEqual(1);
    const [audit] = await t.app.db.select().from(bureauConsentAudits).where(eq(bureauConsentAudits.queryId, query.id));
    expect(audit).toMatchObject({ status: 'DONE', auditFolio: String(query.report!.folio) });
    const sent = t.standIn.audits.find((body) => String(body.folioCDC) === query.report!.folio)!;
    expect(sent).toMatchObject({ numeroFirma: pin, ingresoNuevamenteNIP: true });
    expect(sent.persona).toMatchObject({
      primerNombre: 'JOSE',
      apellidoPaterno: 'GUTIERREZ',
      RFC: rfc,
      domicilio: { calleNumero: 'AVENIDA HIDALGO 301', estado: 'EM' },
    });
    expect(who.user.id).toBe(aval.userId);
  });

  it('a guarantor with an account past due is refused by the policy’s guarantor rules', async () => {
    const { avalId, confirmed } = await consentedByPin('800102');
    expect(confirmed.statusCode).toBe(200);
    const { aval } = await queryOfAval(avalId);
    expect(aval.status).toBe('REFUSED');
    const [decision] = await t.app.db.select().from(creditDecisions).where(eq(creditDecisions.avalId, avalId));
    expect(decision!.rules.find((rule) => !rule.passed)).toMatchObject({ rule: 'guarantor_max_delinquencies' });
  });

  it('a guarantor who consents from their own phone is audited with the code that phone sent', async () => {
    const who = await shopkeeper();
    const rfc = guarantorRfc('800101');
    const phone = createPhone('mx');
    const named = await name(who, { ...person(rfc), phone_number: phone });
    const avalId = named.json().data.aval.id as string;
    // The invitation the shopkeeper's naming sent to the guarantor's phone, and their page.
    const invitation = (await outbox(phone)).find((sms) => sms.body.includes('verify-aval-phone'))!.body;
    const token = decodeURIComponent(/verify-aval-phone\?token=([^\s]+)/.exec(invitation)![1]!);
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/aval/consent',
      headers: { authorization: `Bearer ${token}` },
      payload: { account_type_id: 'SK', account_id: who.user.id, collateral_id: avalId, ip_address: '189.0.0.1' },
    });
    expect(started.statusCode).toBe(200);
    const { session_id: sessionId, message } = started.json().data;
    const nonce = /: ([A-Z0-9]{8})$/.exec(message)![1]!;
    await t.app.inject({
      method: 'POST',
      url: '/dev/reverse-otp/inbound',
      payload: { from: `+52${phone}`, text: message },
    });
    const validated = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/users/aval/reverse-otp',
      payload: { session_id: sessionId },
    });
    expect(validated.json().data.validation).toBe('success');
    const { aval, query } = await queryOfAval(avalId);
    expect(aval.status).toBe('APPROVED');
    await runConsentAuditJobs(t.app);
    const sent = t.standIn.audits.find((body) => String(body.folioCDC) === query.report!.folio)!;
    expect(sent).toMatchObject({ numeroFirma: nonce, ingresoNuevamenteNIP: false, persona: { RFC: rfc } });
  });

  it('a guarantor named before Círculo (full name only) cannot consent: 409 before any PIN, consent or query', async () => {
    const who = await shopkeeper();
    const phone = createPhone('mx');
    const named = await name(who, { ...person(guarantorRfc('800101')), phone_number: phone });
    const avalId = named.json().data.aval.id as string;
    // As if named before the bureau asked for them: the full name only.
    await t.app.db
      .update(avals)
      .set({ givenNames: null, lastname: null, addressEncrypted: null })
      .where(eq(avals.id, avalId));
    const url = `/api/v1/users/${who.user.id}/SK/aval/nip?to=${phone}`;
    const sent = await t.app.inject({ method: 'POST', url, headers: who.auth });
    expect(sent.statusCode).toBe(409);
    expect(sent.json()).toMatchObject({
      code: 'AVAL_DATA_MISSING',
      readable_message:
        'Para consultar el buró necesitamos los apellidos y el domicilio de tu aval. Contacta a tu asesor.',
    });
    expect((await outbox(phone)).some((sms) => sms.body.includes('es tu NIP'))).toBe(false);
    const { aval, query } = await queryOfAval(avalId);
    expect(aval.status).toBe('PENDING');
    expect(query).toBeUndefined();
  });

  it('refuses at naming what Círculo could not file: a postcode of another state, a name outside the Latin alphabet, a minor', async () => {
    const who = await shopkeeper();
    const issuesOf = async (body: Record<string, unknown>) => {
      const res = await name(who, { ...person(guarantorRfc('800101')), ...body });
      expect(res.statusCode).toBe(400);
      return res.json().issues as { field: string; message: string }[];
    };
    // A colonia the catalogue does not know, in Toluca, with a Mexico City postcode.
    expect(await issuesOf({ address: { ...HOME, neighborhood: 'La Loma Nueva', zip_code: '01000' } })).toEqual([
      { field: 'body.address.zip_code', message: '* El código postal no pertenece a ese estado.' },
    ]);
    expect(
      await issuesOf({
        name: 'José Ramiro Antonio Maximiliano de la Santísima Trinidad',
        lastname: 'Gutiérrez Hernández del Monte Alto de las Flores Blancas',
      }),
    ).toEqual([{ field: 'body.name', message: '* El nombre completo del aval es muy largo (máximo 120 caracteres).' }]);
    expect(await issuesOf({ lastname: 'Иванов' })).toEqual([
      { field: 'body.lastname', message: '* Escribe el apellido paterno del aval.' },
    ]);
    // Born on 2008-11-30: 17 on the test's day (and 118 if it were 1908).
    const minor = generateRfc({
      name: 'José Ramiro',
      lastname: 'Gutiérrez',
      maternalLastname: 'Hernández',
      dob: '2008-11-30',
    });
    expect(await issuesOf({ tax_payer_id: minor })).toEqual([
      {
        field: 'body.tax_payer_id',
        message: '* Revisa el RFC del aval: su fecha de nacimiento debe ser la de una persona mayor de edad.',
      },
    ]);
    expect(await t.app.db.select().from(avals).where(eq(avals.userId, who.user.id))).toEqual([]);
  });
});

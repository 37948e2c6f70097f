import { randomBytes } from 'node:crypto';
import { countryToday, formatDay, getCountry, toE164 } from '@provee/domain';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { avals, businessAddresses, businesses, catalogSalesRanges, smsOutbox, users } from '../../db/schema.js';
import { createApplication } from '../../test/factories.js';
import { createPhone } from '../../test/phone.js';
import { MANY_UPLOADS_ENV, verifiedSigner } from '../../test/signer.js';
import { useTestApp } from '../../test/test-app.js';
import type { App } from '../../types.js';
import { DATA_MAP } from './data-map.js';
import { eraseApplication } from './erase-application.js';
import { exportApplicantData, type ApplicantExport } from './export-person.js';
import { personCipher } from './person-keys.js';

const unique = (prefix: string) => `${prefix}${randomBytes(4).toString('hex').replace(/\d/g, 'q')}`;

const fields = (data: ApplicantExport) => data.categories.flatMap((category) => category.fields);
const valueOf = (data: ApplicantExport, source: string) => fields(data).find((field) => field.source === source)?.value;

/** A verified signer's application with a guarantor whose values are words found nowhere else. */
async function applicationWithGuarantor(app: App) {
  const { userId } = await verifiedSigner(app);
  const guarantor = {
    name: unique('Anacleto'),
    phone: toE164(app.config.COUNTRY, createPhone()),
    taxId: unique('402'),
  };
  const [row] = await app.db
    .insert(avals)
    .values({ userId, avalType: 'COLLATERAL', phoneE164: guarantor.phone, name: guarantor.name })
    .returning();
  const theirs = await personCipher(app, app.db, row!.id);
  await app.db
    .update(avals)
    .set({ taxIdEncrypted: theirs.encrypt(guarantor.taxId) })
    .where(eq(avals.id, row!.id));
  return { userId, guarantorId: row!.id, guarantor };
}

describe("an applicant's data export", () => {
  const t = useTestApp(MANY_UPLOADS_ENV);

  it('holds every mapped personal field of theirs, decrypted and labelled in Spanish', async () => {
    const { userId } = await applicationWithGuarantor(t.app);
    const data = (await exportApplicantData(t.app, t.app.db, userId))!;
    const [user] = await t.app.db.select().from(users).where(eq(users.id, userId));
    const own = await personCipher(t.app, t.app.db, userId);

    expect(valueOf(data, 'users.name')).toBe(user!.name);
    expect(valueOf(data, 'users.phone_e164')).toBe(user!.phoneE164);
    expect(valueOf(data, 'users.tax_id_encrypted')).toBe(own.decrypt(user!.taxIdEncrypted!));
    expect(valueOf(data, 'users.dob_encrypted')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(valueOf(data, 'users.password_hash')).toBeUndefined();
    // Every personal column of their own rows that holds something is there, from the map.
    const rows = {
      users: user!,
      businesses: (await t.app.db.select().from(businesses).where(eq(businesses.userId, userId)))[0]!,
      business_addresses: (
        await t.app.db.select().from(businessAddresses).where(eq(businessAddresses.userId, userId))
      )[0]!,
    };
    const missing: string[] = [];
    for (const [table, row] of Object.entries(rows)) {
      const stored = Object.fromEntries(
        Object.entries(row).map(([key, value]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), value]),
      );
      for (const column of Object.keys(DATA_MAP[table]!.personal))
        if (stored[column] !== null && stored[column] !== '' && valueOf(data, `${table}.${column}`) === undefined)
          missing.push(`${table}.${column}`);
    }
    expect(missing).toEqual([]);
    // Identity photos and the bureau report are theirs too: described, under their categories.
    expect(data.categories.map((category) => category.label)).toEqual(
      expect.arrayContaining(['Datos de identificación', 'Datos de contacto', 'Datos biométricos']),
    );
    expect(valueOf(data, 'identity_documents.data_encrypted')).toMatch(/^Archivo guardado cifrado \(\d+ bytes\)$/);
    expect(data.application).toMatchObject({ id: userId, status: user!.status, next_step: user!.nextStep });
    expect(data.application.consents).toHaveLength(1);
    expect(data.application.credit_decisions[0]).toMatchObject({ result: expect.any(String) });
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
  });

  it("holds nothing of another applicant's, nor of their guarantor but id, type and state", async () => {
    const { userId, guarantorId, guarantor } = await applicationWithGuarantor(t.app);
    const other = await createApplication(t.app, { name: unique('Bartola'), lastname: unique('Irigoyen') });
    const [otherRow] = await t.app.db.select().from(users).where(eq(users.id, other.id));
    const otherTaxId = (await personCipher(t.app, t.app.db, other.id)).decrypt(otherRow!.taxIdEncrypted!);

    const text = JSON.stringify(await exportApplicantData(t.app, t.app.db, userId));
    for (const value of [otherRow!.name!, otherRow!.lastname!, otherRow!.phoneE164, otherTaxId, other.id])
      expect(text).not.toContain(value);
    for (const value of [guarantor.name, guarantor.phone, guarantor.taxId]) expect(text).not.toContain(value);
    const data = (await exportApplicantData(t.app, t.app.db, userId))!;
    expect(data.application.guarantors).toEqual([
      {
        id: guarantorId,
        type: 'COLLATERAL',
        type_label: 'Aval solidario',
        status: 'PENDING',
        status_label: 'Esperando consentimiento',
      },
    ]);
    expect(await exportApplicantData(t.app, t.app.db, '00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it('shows codes as the words the registration screens offered', async () => {
    const { userId } = await applicationWithGuarantor(t.app);
    await t.app.db
      .update(users)
      .set({ maritalStatus: 'MARRIED', lengthOfResidencyInYears: 4 })
      .where(eq(users.id, userId));
    const [business] = await t.app.db.select().from(businesses).where(eq(businesses.userId, userId));
    const [range] = await t.app.db
      .select()
      .from(catalogSalesRanges)
      .where(eq(catalogSalesRanges.id, business!.salesRangeId));
    const data = (await exportApplicantData(t.app, t.app.db, userId))!;

    expect(valueOf(data, 'users.marital_status')).toBe('Casado(a)');
    expect(valueOf(data, 'users.length_of_residency_in_years')).toBe('4 o más años');
    expect(valueOf(data, 'businesses.sales_range_id')).toBe(range!.description);
    expect(valueOf(data, 'businesses.business_age_years')).toMatch(/^\d (año|años|o más años)$/);
    expect(data.application).toMatchObject({ status_label: 'En curso', next_step_label: expect.any(String) });
    expect(data.application.next_step_label).not.toBe(data.application.next_step);
    expect(data.application.credit_decisions[0]!.result_label).toMatch(/^(Preaprobada|No aprobada)$/);
    expect(JSON.stringify(data.categories)).not.toMatch(/"(MARRIED|SINGLE|IN_PROGRESS|COLLATERAL)"/);
  });

  it('lists each phone once, and of the SMS outbox only how many messages and when, never a body', async () => {
    const { userId } = await applicationWithGuarantor(t.app);
    const [user] = await t.app.db.select().from(users).where(eq(users.id, userId));
    const phone = user!.phoneE164;
    const secret = unique('Tu codigo es ');
    await t.app.db.insert(smsOutbox).values([
      { to: phone, body: secret },
      { to: phone, body: `${secret} otra vez` },
    ]);
    const sent = await t.app.db.select().from(smsOutbox).where(eq(smsOutbox.to, phone));
    const data = (await exportApplicantData(t.app, t.app.db, userId))!;

    expect(JSON.stringify(data)).not.toContain(secret);
    expect(fields(data).filter((field) => field.source.startsWith('sms_outbox.'))).toEqual([]);
    // Their days as the country reads them ('29 de noviembre de 2026' in its time zone), not ISO.
    const country = getCountry(t.app.config.COUNTRY);
    const times = sent.map((row) => row.createdAt.getTime()).sort((a, b) => a - b);
    const day = (time: number) => formatDay(countryToday(country, new Date(time)), country.locale);
    expect(valueOf(data, 'sms_outbox')).toBe(
      `${sent.length} mensajes, enviados del ${day(times[0]!)} al ${day(times.at(-1)!)}`,
    );
    expect(valueOf(data, 'sms_outbox')).toMatch(/ de \d{4}$/);
    // The phone keys the application, its codes, its proofs and its messages: shown once all the same.
    expect(
      fields(data)
        .filter((field) => field.value === phone)
        .map((field) => field.source),
    ).toEqual(['users.phone_e164']);
    const byLabel = new Map<string, unknown[]>();
    for (const field of fields(data)) byLabel.set(field.label, [...(byLabel.get(field.label) ?? []), field.value]);
    for (const [label, values] of byLabel)
      expect(new Set(values.map((value) => JSON.stringify(value))).size, label).toBe(values.length);
  });

  it('says an erased application holds nothing, never showing a tombstone as data', async () => {
    const { userId } = await applicationWithGuarantor(t.app);
    const [before] = await t.app.db.select().from(users).where(eq(users.id, userId));
    expect((await exportApplicantData(t.app, t.app.db, userId))!.application.erased_at).toBeNull();
    await t.app.db.transaction((tx) => eraseApplication(t.app, tx, userId, 'test'));
    const [after] = await t.app.db.select().from(users).where(eq(users.id, userId));
    expect(after!.phoneE164).toMatch(/^erased:/);

    const data = (await exportApplicantData(t.app, t.app.db, userId))!;
    expect(data.categories).toEqual([]);
    expect(data.application.erased_at).toMatch(/^\d{4}-\d{2}-\d{2}/);
    const text = JSON.stringify(data);
    for (const value of ['erased:', before!.phoneE164, before!.name!]) expect(text).not.toContain(value);
  });
});

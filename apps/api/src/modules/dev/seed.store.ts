import { randomUUID } from 'node:crypto';
import { isApplicationStatus, isNextStep, toE164 } from '@provee/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  avals,
  businessAddresses,
  businesses,
  catalogMunicipalities,
  catalogSalesRanges,
  catalogStates,
} from '../../db/schema.js';
import { createApplication, engineOf } from '../application/index.js';
import { applicantKeys } from '../users/index.js';

export interface ApplicationSeed {
  phone: string;
  nextStep: string;
  status?: string;
  avals?: { avalType: 'PARTNER' | 'COLLATERAL'; phone: string | null }[];
  /** A complete registration (personal data, tax id, address, business), as the five screens leave it. */
  complete?:
    | { taxId: string; dob?: string; name?: string; lastname?: string; businessAgeYears?: number; salesRange?: number }
    | undefined;
}

/**
 * Creates a user at any step, for tests (never reachable in production). A test seed writes the
 * other modules' tables straight (through the step engine for the application itself): it sets up
 * what a journey would have left, which no module's own store offers.
 */
export async function seedApplication(app: FastifyInstance, seed: ApplicationSeed) {
  const country = app.config.COUNTRY;
  const profile = seed.complete;
  const status = seed.status ?? 'IN_PROGRESS';
  // Only the states the domain knows (the database refuses the others too), through the step engine.
  if (!isNextStep(seed.nextStep) || !isApplicationStatus(status))
    throw new Error(`unknown state ${seed.nextStep}/${status}`);
  // Sealed with the applicant's own key (decision 032), as registration does.
  const id = randomUUID();
  const { cipher } = await applicantKeys(app, app.db, id);
  const user = await createApplication(engineOf(app), {
    id,
    phoneE164: toE164(country, seed.phone),
    actor: 'test-factory',
    at: { step: seed.nextStep, status },
    event: { type: 'test.seeded', payload: { step: seed.nextStep, status } },
    set: profile
      ? {
          name: profile.name ?? 'María José',
          lastname: profile.lastname ?? 'Peña',
          maternalLastname: 'Núñez',
          dobEncrypted: cipher.encrypt(profile.dob ?? '1985-02-28'),
          lengthOfResidencyInYears: 4,
          maritalStatus: 'MARRIED',
          taxIdEncrypted: cipher.encrypt(profile.taxId),
          taxIdHash: app.cipher.lookupHash(`${country}:${profile.taxId}`),
        }
      : {},
  });
  for (const aval of seed.avals ?? []) {
    await app.db.insert(avals).values({
      userId: user!.id,
      avalType: aval.avalType,
      phoneE164: aval.phone ? toE164(country, aval.phone) : null,
    });
  }
  if (profile) {
    const [served] = await app.db
      .select({ id: catalogMunicipalities.id, city: catalogMunicipalities.name, state: catalogStates.name })
      .from(catalogMunicipalities)
      .innerJoin(catalogStates, eq(catalogStates.id, catalogMunicipalities.stateId))
      .where(and(eq(catalogStates.country, country), eq(catalogMunicipalities.allowed, true)))
      .orderBy(asc(catalogMunicipalities.id))
      .limit(1);
    const ranges = await app.db
      .select()
      .from(catalogSalesRanges)
      .where(eq(catalogSalesRanges.country, country))
      .orderBy(asc(catalogSalesRanges.position));
    await app.db.insert(businessAddresses).values({
      userId: user!.id,
      zipCode: country === 'do' ? '00000' : '55000',
      state: served!.state,
      city: served!.city,
      neighborhood: 'Centro',
      streetName: 'Calle Principal',
      streetNumber: '1',
      municipalityId: served!.id,
    });
    await app.db.insert(businesses).values({
      userId: user!.id,
      name: 'Colmado La Esquina',
      businessType: 'Colmado',
      salesRangeId: ranges[(profile.salesRange ?? 3) - 1]!.id,
      businessAgeYears: profile.businessAgeYears ?? 3,
    });
  }
  return user!;
}

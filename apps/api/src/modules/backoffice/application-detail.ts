import {
  staffMay,
  type ApplicationDetail,
  type MessageChannel,
  type MessageKind,
  type MessageStatus,
  type StaffRole,
} from '@provee/domain';
import type { FastifyInstance } from 'fastify';
import { isErasedPhone } from '../application/index.js';
import { lenderDecisionsOf } from '../lending/index.js';
import { listMessagesOf } from '../messaging/index.js';
import { contractSeal } from '../signing/index.js';
import type { StaffRow } from '../staff/index.js';
import { applicantKeys, applicantPerson, applicantTaxId, type UserRow } from '../users/index.js';
import { applicationRecords, otherApplicationsNaming } from './applications.store.js';
import { MASKED_DATE, MASKED_TAX_ID, NOT_FOUND } from './applications.service.js';
import { actorNames, timeline } from './application-timeline.js';

type BureauQueryView = ApplicationDetail['bureau_queries'][number];

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

/**
 * The applicant's tax id and birth date, decrypted (the back office's detail and the partner API's).
 * An erased application (issue 31) keeps its states and audit chain, shown as they are; its data key
 * is destroyed, so nothing is decrypted: its tax id and birth date are null, not a 410 for the whole.
 */
export async function applicantIdentifiers(app: FastifyInstance, user: UserRow) {
  const keys = isErasedPhone(user.phoneE164) ? null : await applicantKeys(app, app.db, user.id);
  const taxId = keys ? (applicantTaxId(keys, user)?.canonical ?? null) : null;
  const birthDate = keys ? applicantPerson(keys, user).birthDate : null;
  return { taxId, birthDate };
}

/** The lender's decisions, each with who made it in words (the timeline may not reach back to it). */
async function lenderDecisionsNamed(app: FastifyInstance, userId: string) {
  const decisions = await lenderDecisionsOf(app, userId);
  const nameOf = await actorNames(
    app,
    decisions.map((decision) => decision.decided_by),
  );
  return decisions.map((decision) => ({ ...decision, decided_by_name: nameOf(decision.decided_by) }));
}

/** Everything recorded about one application, masked for the staff member's role. */
export async function applicationDetail(
  app: FastifyInstance,
  member: StaffRow,
  applicationId: string,
): Promise<ApplicationDetail> {
  const records = await applicationRecords(app.db, applicationId);
  if (!records) throw NOT_FOUND;
  const { user, business, address, consents, queries, decisions, guarantors, signers, contract, contacts } = records;
  const { checks, documents, audits } = records;
  const auditOf = new Map(audits.map((audit) => [audit.queryId, audit]));
  const sensitive = staffMay(member.role as StaffRole, 'readSensitive');
  const sharedPhones = await otherApplicationsNaming(app.db, user.id, [
    ...new Set(guarantors.map((aval) => aval.phoneE164).filter((phone): phone is string => Boolean(phone))),
  ]);
  const { taxId, birthDate: dob } = await applicantIdentifiers(app, user);
  const maxAttempts = app.config.IDENTITY_MAX_ATTEMPTS;
  const [b, a, c] = [business, address, contract];
  return {
    id: user.id,
    phone: user.phoneE164,
    next_step: user.nextStep,
    status: user.status,
    country: app.config.COUNTRY,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
    sensitive_visible: sensitive,
    person: {
      name: user.name,
      lastname: user.lastname,
      maternal_lastname: user.maternalLastname,
      tax_id: taxId === null ? null : sensitive ? taxId : MASKED_TAX_ID,
      birth_date: dob === null ? null : sensitive ? dob : MASKED_DATE,
      marital_status: user.maritalStatus,
      length_of_residency_in_years: user.lengthOfResidencyInYears,
    },
    utm: { source: user.utmSource, medium: user.utmMedium, campaign: user.utmName },
    business: b
      ? {
          name: b.name,
          business_type: b.businessTypeOther ? `${b.businessType}: ${b.businessTypeOther}` : b.businessType,
          sales_range_id: b.salesRangeId,
          business_age_years: b.businessAgeYears,
        }
      : null,
    address: a
      ? {
          zip_code: a.zipCode,
          state: a.state,
          city: a.city,
          neighborhood: a.neighborhood,
          street_name: a.streetName,
          street_number: a.streetNumber,
          apartment_number: a.apartmentNumber,
          municipality_id: a.municipalityId,
          neighborhood_typed: a.neighborhoodTyped,
          neighborhood_reviewed_at: iso(a.neighborhoodReviewedAt),
        }
      : null,
    consents: consents.map((consent) => ({
      id: consent.id,
      person_type: consent.personType,
      aval_id: consent.avalId,
      created_at: consent.createdAt.toISOString(),
      // Where the consent was given from is evidence for analysts; an advisor calls, and needs it not.
      ip: sensitive ? consent.ip : null,
      user_agent: consent.userAgent,
      pin_verified: consent.pinVerified,
      bureau_folio: consent.bureauFolio,
      consent_version: consent.consentVersion,
      consent_text_sha256: consent.consentTextSha256,
      authorized_until: consent.authorizedUntil.toISOString(),
    })),
    bureau_queries: queries.map((query) => ({
      id: query.id,
      consent_id: query.consentId,
      status: query.status,
      attempts: query.attempts,
      last_error: query.lastError,
      failure: query.failure as BureauQueryView['failure'],
      provider: query.provider,
      // The bureau's report is credit data: analysts only.
      report: sensitive ? (query.report ?? null) : null,
      raw_report: sensitive && Boolean(query.hasRaw),
      audit_status: auditOf.get(query.id)?.status ?? null,
      audit_folio: auditOf.get(query.id)?.auditFolio ?? null,
      audit_last_error: auditOf.get(query.id)?.lastError ?? null,
      created_at: query.createdAt.toISOString(),
      updated_at: query.updatedAt.toISOString(),
    })),
    lender_decisions: await lenderDecisionsNamed(app, user.id),
    decisions: decisions.map((decision) => ({
      id: decision.id,
      consent_id: decision.consentId,
      aval_id: decision.avalId,
      result: decision.result,
      amount: decision.amount,
      currency: decision.currency,
      policy_version: decision.policyVersion,
      // Each rule's value is the applicant's data (age, score, late accounts): the outcome only for advisors.
      rules: sensitive ? decision.rules : decision.rules.map((rule) => ({ ...rule, value: null })),
      created_at: decision.createdAt.toISOString(),
    })),
    guarantors: guarantors.map((aval) => ({
      id: aval.id,
      aval_type: aval.avalType,
      name: aval.name,
      phone: aval.phoneE164,
      status: aval.status,
      created_at: aval.createdAt.toISOString(),
      phone_other_applications: aval.phoneE164 ? (sharedPhones.get(aval.phoneE164) ?? 0) : 0,
    })),
    signers: signers.map((signer) => ({
      id: signer.id,
      person_type: signer.personType as 'titular' | 'collateral',
      aval_id: signer.avalId,
      name: signer.name,
      state: signer.state,
      attempts_used: signer.verificationAttempts,
      attempts_left: maxAttempts + signer.extraAttempts - signer.verificationAttempts,
      extra_attempts: signer.extraAttempts,
      signed_at: iso(signer.signedAt),
      verifications: checks
        .filter((check) => check.signerId === signer.id)
        .map((check) => ({
          id: check.id,
          verification_type: check.verificationType,
          provider: check.provider,
          status: check.status,
          created_at: check.createdAt.toISOString(),
          answered_at: iso(check.answeredAt),
          answered_by: check.answeredBy,
          note: typeof check.answer?.note === 'string' ? check.answer.note : null,
          documents: documents
            .filter((doc) => doc.verificationId === check.id)
            .map((doc) => ({ id: doc.id, kind: doc.kind, format: doc.format, bytes: doc.bytes })),
        })),
    })),
    contract: c
      ? {
          id: c.id,
          template_version: c.templateVersion,
          unsigned_sha256: c.unsignedSha256,
          signed_sha256: c.signedSha256,
          created_at: c.createdAt.toISOString(),
          seal: await contractSeal(app.db, c.id),
        }
      : null,
    advisor_contacts: contacts.map((contact) => ({
      id: contact.id,
      contact_type: contact.contactType,
      created_at: contact.createdAt.toISOString(),
    })),
    messages: (await listMessagesOf(app.db, user.id)).map((message) => ({
      id: message.id,
      kind: message.kind as MessageKind,
      channel: message.channel as MessageChannel,
      status: message.status as MessageStatus,
      error_code: message.errorCode,
      fallback_of: message.fallbackOf,
      created_at: message.createdAt.toISOString(),
      status_at: message.statusAt.toISOString(),
    })),
    // Its newest events, verified from each chain's checkpoint; older pages come from …/timeline.
    timeline: await timeline(app, user, sensitive),
  };
}

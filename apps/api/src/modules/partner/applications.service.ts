import type { PartnerApplication, PartnerScope } from '@provee/domain';
import type { FastifyInstance } from 'fastify';
import { AppError, invalidFields } from '../../errors.js';
import { uniqueViolation } from '../application/index.js';
import { appendAuditEvent } from '../audit/index.js';
import { applicantIdentifiers, applicationRecords, MASKED_DATE, MASKED_TAX_ID } from '../backoffice/index.js';
import { lenderDecisionsOf } from '../lending/index.js';
import { applicationsChangedSince, setExternalId, type ChangeCursor } from '../users/index.js';

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

export const APPLICATION_NOT_FOUND = () =>
  new AppError(404, 'APPLICATION_NOT_FOUND', 'application not found', 'No encontramos esa solicitud.');

/** A rule's outcome as a decision stores it (the reason is the policy's, on a refusal). */
type StoredRule = { rule: string; passed: boolean; reason?: string };

/**
 * One application as the lender's systems read it: where it stands, the credit decisions with the
 * rules that refused, the lender's decisions, guarantors, signers and the contract's hashes. The
 * tax id and birth date are masked as an advisor sees them unless the key has `personal_data:read`;
 * bureau reports, addresses and images never leave through this API.
 */
export async function partnerApplication(
  app: FastifyInstance,
  applicationId: string,
  scopes: readonly PartnerScope[],
): Promise<PartnerApplication> {
  const records = await applicationRecords(app.db, applicationId);
  if (!records) throw APPLICATION_NOT_FOUND();
  const { user, business, decisions, guarantors, signers, contract } = records;
  const unmasked = scopes.includes('personal_data:read');
  // An erased application's tax id and birth date are null (its data key is destroyed), the rest shown.
  const { taxId, birthDate } = await applicantIdentifiers(app, user);
  return {
    id: user.id,
    external_id: user.externalId,
    country: app.config.COUNTRY,
    next_step: user.nextStep,
    status: user.status,
    phone: user.phoneE164,
    person: {
      name: user.name,
      lastname: user.lastname,
      maternal_lastname: user.maternalLastname,
      tax_id: taxId === null ? null : unmasked ? taxId : MASKED_TAX_ID,
      birth_date: birthDate === null ? null : unmasked ? birthDate : MASKED_DATE,
    },
    business: business
      ? { name: business.name, business_type: business.businessType, business_age_years: business.businessAgeYears }
      : null,
    credit_decisions: decisions.map((decision) => ({
      id: decision.id,
      aval_id: decision.avalId,
      result: decision.result as 'APPROVED' | 'REJECTED',
      amount: decision.amount,
      currency: decision.currency,
      policy_version: decision.policyVersion,
      reasons: (decision.rules as StoredRule[])
        .filter((rule) => !rule.passed)
        .map((rule) => ({ rule: rule.rule, reason: rule.reason ?? null })),
      created_at: decision.createdAt.toISOString(),
    })),
    lender_decisions: await lenderDecisionsOf(app, user.id),
    guarantors: guarantors.map((aval) => ({
      id: aval.id,
      aval_type: aval.avalType as 'PARTNER' | 'COLLATERAL',
      name: aval.name,
      status: aval.status,
      created_at: aval.createdAt.toISOString(),
    })),
    signers: signers.map((signer) => ({
      id: signer.id,
      person_type: signer.personType as 'titular' | 'collateral',
      aval_id: signer.avalId,
      name: signer.name,
      state: signer.state as PartnerApplication['signers'][number]['state'],
      signed_at: iso(signer.signedAt),
    })),
    contract: contract
      ? { id: contract.id, unsigned_sha256: contract.unsignedSha256, signed_sha256: contract.signedSha256 }
      : null,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}

const INVALID_CURSOR = () => invalidFields({ cursor: 'Cursor inválido: usa el next_cursor de la página anterior.' });

/** The cursor a page ends with: the transaction that last wrote its last application, and that application's id. */
const encodeCursor = (cursor: ChangeCursor) => `${cursor.changeTx}.${cursor.id}`;

function decodeCursor(text: string): ChangeCursor {
  const match = /^(\d{1,20})\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(text);
  if (!match || BigInt(match[1]!) >= 2n ** 64n) throw INVALID_CURSOR();
  return { changeTx: match[1]!, id: match[2]! };
}

/**
 * A page of applications by last change, oldest first: a sync keeps the last `next_cursor`, and
 * asking with it later gives what changed since (a change moves an application to the end).
 */
export async function partnerApplicationsPage(
  app: FastifyInstance,
  query: { updated_since?: string | undefined; cursor?: string | undefined; limit: number },
) {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const rows = await applicationsChangedSince(app.db, {
    since: query.updated_since ? new Date(query.updated_since) : undefined,
    after,
    limit: query.limit,
  });
  const last = rows.at(-1);
  return {
    data: rows.map((row) => ({
      id: row.id,
      external_id: row.externalId,
      country: app.config.COUNTRY,
      next_step: row.nextStep,
      status: row.status,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    })),
    // The same cursor again when nothing came: asked later, it gives what changed meanwhile.
    next_cursor: last ? encodeCursor({ changeTx: last.changeTx, id: last.id }) : (query.cursor ?? null),
  };
}

/**
 * The lender's own id for an application (null removes it), unique across applications (409), in
 * the application's audit trail with the key that set it.
 */
export async function changeExternalId(
  app: FastifyInstance,
  applicationId: string,
  externalId: string | null,
  actor: string,
): Promise<{ id: string; external_id: string | null }> {
  try {
    return await app.db.transaction(async (tx) => {
      const row = await setExternalId(tx, applicationId, externalId);
      if (!row) throw APPLICATION_NOT_FOUND();
      await appendAuditEvent(tx, {
        applicationId,
        actor,
        type: 'partner.external_id_set',
        payload: { external_id: externalId },
        at: app.clock(),
      });
      return { id: row.id, external_id: row.externalId };
    });
  } catch (error) {
    if (uniqueViolation(error))
      throw new AppError(
        409,
        'EXTERNAL_ID_TAKEN',
        'external id on another application',
        'Otra solicitud ya tiene ese identificador.',
      );
    throw error;
  }
}

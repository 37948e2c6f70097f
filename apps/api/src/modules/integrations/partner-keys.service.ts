import { createHmac, randomBytes } from 'node:crypto';
import type { PartnerKeyView, PartnerScope } from '@provee/domain';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { appendAuditEvent } from '../audit/index.js';
import { staffActor, staffChain, type StaffRow } from '../staff/index.js';
import {
  findPartnerKey,
  insertPartnerKey,
  listPartnerKeys,
  revokeKey,
  type PartnerKeyRow,
} from './partner-keys.store.js';

/**
 * Keys of the lender's systems for /partner/v1 (issue 30): 32 random bytes, shown once; stored as
 * an HMAC under a key of their own (a database leak gives no usable key); revocable; expiring.
 */
const TOKEN_PREFIX = 'pvk_';

export const partnerKeyHash = (app: Pick<FastifyInstance, 'secrets'>, token: string) =>
  createHmac('sha256', app.secrets.key('partner-keys')).update(token).digest('hex');

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function partnerKeyView(row: PartnerKeyRow): PartnerKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes as PartnerScope[],
    expires_at: iso(row.expiresAt),
    revoked_at: iso(row.revokedAt),
    last_used_at: iso(row.lastUsedAt),
    created_at: row.createdAt.toISOString(),
  };
}

export async function listPartnerKeyViews(app: FastifyInstance): Promise<PartnerKeyView[]> {
  return (await listPartnerKeys(app.db)).map(partnerKeyView);
}

export async function createPartnerKey(
  app: FastifyInstance,
  member: StaffRow,
  body: { name: string; scopes: PartnerScope[]; expires_in_days: number | null },
): Promise<{ key: PartnerKeyView; token: string }> {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const now = app.clock();
  const row = await app.db.transaction(async (tx) => {
    const created = await insertPartnerKey(tx, {
      name: body.name,
      prefix: token.slice(0, TOKEN_PREFIX.length + 6),
      tokenHash: partnerKeyHash(app, token),
      scopes: [...new Set(body.scopes)],
      expiresAt: body.expires_in_days === null ? null : new Date(now.getTime() + body.expires_in_days * 86_400_000),
      createdBy: staffActor(member),
      createdAt: now,
    });
    await appendAuditEvent(tx, {
      applicationId: staffChain(member.id),
      actor: staffActor(member),
      type: 'integrations.partner_key_created',
      payload: { key_id: created.id, name: created.name, scopes: created.scopes, expires_at: iso(created.expiresAt) },
      at: now,
    });
    return created;
  });
  return { key: partnerKeyView(row), token };
}

export async function revokePartnerKey(app: FastifyInstance, member: StaffRow, id: string): Promise<PartnerKeyView> {
  const now = app.clock();
  const row = await app.db.transaction(async (tx) => {
    const revoked = await revokeKey(tx, id, now);
    if (!revoked) return undefined;
    await appendAuditEvent(tx, {
      applicationId: staffChain(member.id),
      actor: staffActor(member),
      type: 'integrations.partner_key_revoked',
      payload: { key_id: id },
      at: now,
    });
    return revoked;
  });
  if (row) return partnerKeyView(row);
  const existing = await findPartnerKey(app.db, id);
  if (!existing) throw new AppError(404, 'KEY_NOT_FOUND', 'key not found', 'No encontramos esa llave.');
  throw new AppError(409, 'KEY_REVOKED', 'key already revoked', 'Esta llave ya estaba revocada.');
}

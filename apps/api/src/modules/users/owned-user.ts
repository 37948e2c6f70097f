import type { FastifyRequest } from 'fastify';
import { requireUserAccess } from '../auth/index.js';
import { findUserById, type UserRow } from './users.store.js';

/** Route params of every `/v1/users/:id/:type/...` route and what a saved step answers (the contract's). */
export { stepAnswerSchema, userParams } from '@provee/domain';

/** The user of the route, when the caller owns it (403 otherwise, whether or not it exists). */
export async function ownedUser(request: FastifyRequest, id: string): Promise<UserRow> {
  const user = await findUserById(request.server.db, id);
  requireUserAccess(request, user);
  return user!;
}

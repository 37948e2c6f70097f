import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUserAccess } from '../auth/index.js';
import { findUserById, type UserRow } from './users.service.js';

/** Route params of every `/v1/users/:id/:type/...` route. */
export const userParams = z.object({ id: z.uuid('Usuario inválido.'), type: z.enum(['SK']) });

/** What a saved step answers: where the application now stands. */
export const stepAnswerSchema = z.object({ data: z.object({ user_id: z.string(), next_step: z.string(), status: z.string(), path: z.string() }) });

/** The user of the route, when the caller owns it (403 otherwise, whether or not it exists). */
export async function ownedUser(request: FastifyRequest, id: string): Promise<UserRow> {
  const user = await findUserById(request.server.db, id);
  requireUserAccess(request, user);
  return user!;
}

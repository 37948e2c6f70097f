import { anonymousId, routeAfterLookup, type LookupUser } from '@provee/domain';
import { ApiError, apiRequest } from './api-client.js';

export const lookupUser = (phone: string) =>
  apiRequest<{ data: LookupUser }>('GET', `/api/v1/users?phone_number=${phone}&anonymous_id=${anonymousId(phone)}`);

export interface UserDetail extends LookupUser {
  phone_number?: string;
  tax_id_suggestion?: string | null;
  pre_approval?: { amount: number; currency: string } | null;
}

export const getUser = (userId: string, options: { spinner?: boolean } = {}) =>
  apiRequest<{ data: UserDetail }>('GET', `/api/v1/users/${userId}/SK`, options);

/** SPEC §2.2 from the user's current state (404 = new user, 422 = /rejected). */
export async function routeForPhone(phone: string): Promise<string> {
  try {
    const { data } = await lookupUser(phone);
    return routeAfterLookup({ kind: 'user', phone, user: data });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return routeAfterLookup({ kind: 'new-user', phone });
    if (error instanceof ApiError && error.status === 422) return '/rejected';
    throw error;
  }
}

/** After a saved step: reload the user and say where the server's next_step leads. */
export async function routeForUser(phone: string, userId: string): Promise<string> {
  const { data } = await getUser(userId);
  return routeAfterLookup({ kind: 'user', phone, user: data });
}

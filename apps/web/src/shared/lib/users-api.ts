import { anonymousId, lookupUserRoute, routeAfterLookup, userDetailRoute } from '@provee/domain';
import type { UserDetail } from '@provee/domain';
import { ApiError } from './api-client.js';
import { apiRequest } from './api-request.js';
import { applicationState, routeAfterSave } from './application-state.js';
import { rememberRejection } from './rejection.js';

/** The shopkeeper's application in the path of its calls (`/users/:id/:type`; the only user type: SK). */
export const shopkeeper = (userId: string) => ({ params: { id: userId, type: 'SK' as const } });

export const lookupUser = async (phone: string) => {
  const answer = await apiRequest(lookupUserRoute, {
    query: { phone_number: phone, anonymous_id: anonymousId(phone) },
  });
  // The answer carries the phone_number it was looked up by.
  applicationState.fromUser(answer.data);
  return answer;
};

export type { UserDetail };

/** The user's detail; every fetch updates the tab's application state. */
export const getUser = async (userId: string, options: { spinner?: boolean } = {}) => {
  const answer = await apiRequest(userDetailRoute, { ...shopkeeper(userId), ...options });
  applicationState.fromUser(answer.data);
  return answer;
};

/** SPEC §2.2 from the user's current state (404 = new user, 422 = /rejected). */
export async function routeForPhone(phone: string): Promise<string> {
  try {
    const { data } = await lookupUser(phone);
    return routeAfterLookup({ kind: 'user', phone, user: data });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return routeAfterLookup({ kind: 'new-user', phone });
    if (error instanceof ApiError && error.status === 422) {
      rememberRejection(error);
      return '/rejected';
    }
    throw error;
  }
}

/**
 * A call refused with 409 (the step was done meanwhile, or the phone already has an application):
 * the envelope's `current` says where the application stands, and goes there like a step answer.
 * Without it (never expected), the server is asked once.
 */
export async function routeAfterConflict(phone: string, userId: string | undefined, error: ApiError): Promise<string> {
  const current = error.details.current as Parameters<typeof routeAfterSave>[1] | undefined;
  if (current && typeof current.next_step === 'string' && typeof current.status === 'string') {
    return routeAfterSave(phone, current);
  }
  if (!userId) return routeForPhone(phone);
  const { data } = await getUser(userId);
  return routeAfterLookup({ kind: 'user', phone, user: data });
}

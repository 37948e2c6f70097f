import { anonymousId, routeAfterLookup } from '@provee/domain';
import type { FoundUser, LookupUserQuery, UserDetail } from '@provee/domain';
import { ApiError, apiRequest } from './api-client.js';
import { applicationState, routeForState } from './application-state.js';
import { rememberRejection } from './rejection.js';

export const lookupUser = async (phone: string) => {
  const query = { phone_number: phone, anonymous_id: anonymousId(phone) } satisfies LookupUserQuery;
  const answer = await apiRequest<{ data: FoundUser }>(
    'GET',
    `/api/v1/users?phone_number=${query.phone_number}&anonymous_id=${query.anonymous_id}`,
  );
  // The answer carries the phone_number it was looked up by.
  applicationState.fromUser(answer.data);
  return answer;
};

export type { UserDetail };

/** The user's detail; every fetch updates the tab's application state. */
export const getUser = async (userId: string, options: { spinner?: boolean } = {}) => {
  const answer = await apiRequest<{ data: UserDetail }>('GET', `/api/v1/users/${userId}/SK`, options);
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
 * A call refused with 409 (the step was done meanwhile, or is not reached yet): the envelope says
 * where the application stands; an older answer without it makes us ask the server once.
 */
export async function routeAfterConflict(phone: string, userId: string, error: ApiError): Promise<string> {
  // The step engine's 409 carries `current: { user_id, next_step, status, path }`.
  const where = (error.details.current ?? error.details) as {
    user_id?: unknown;
    next_step?: unknown;
    status?: unknown;
  };
  const { user_id, next_step, status } = where;
  if (typeof next_step === 'string' && typeof status === 'string') {
    applicationState.set({ user_id: typeof user_id === 'string' ? user_id : userId, next_step, status });
    return routeForState(phone, applicationState.get(typeof user_id === 'string' ? user_id : userId)!);
  }
  const { data } = await getUser(userId);
  return routeAfterLookup({ kind: 'user', phone, user: data });
}

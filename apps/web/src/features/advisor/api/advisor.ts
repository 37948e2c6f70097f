import { recordAdvisorEventRoute } from '@provee/domain';
import type { ContactType } from '@provee/domain';
import { apiRequest } from '../../../shared/lib/api-request.js';
import { shopkeeper } from '../../../shared/lib/users-api.js';

export type { ContactType };

export const recordAdvisorContact = (userId: string, contactType: ContactType) =>
  apiRequest(recordAdvisorEventRoute, {
    ...shopkeeper(userId),
    body: { contact_type: contactType },
  });

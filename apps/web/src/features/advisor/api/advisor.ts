import type { AdvisorEvent, AdvisorEventPayload, ContactType } from '@provee/domain';
import { apiRequest } from '../../../shared/lib/api-client.js';

export type { ContactType };

export const recordAdvisorContact = (userId: string, contactType: ContactType) =>
  apiRequest<AdvisorEvent>('POST', `/api/v1/users/${userId}/SK/advisor-events`, {
    body: { contact_type: contactType } satisfies AdvisorEventPayload,
  });

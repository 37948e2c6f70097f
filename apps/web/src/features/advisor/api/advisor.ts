import { apiRequest } from '../../../shared/lib/api-client.js';

export type ContactType = 'CALL_ADVISER' | 'WITH_ADVISER' | 'WHATSAPP_CHAT';

export const recordAdvisorContact = (userId: string, contactType: ContactType) =>
  apiRequest('POST', `/api/v1/users/${userId}/SK/advisor-events`, { body: { contact_type: contactType } });

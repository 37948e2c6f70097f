import {
  filePrivacyRequestRoute,
  myDataPdfRoute,
  myDataRoute,
  myPrivacyRequestsRoute,
  SESSION_KEYS,
  type FilePrivacyRequestBody,
} from '@provee/domain';
import { ApiError } from '../../../shared/lib/api-client.js';
import { apiRequest, urlOf } from '../../../shared/lib/api-request.js';
import { session } from '../../../shared/lib/session.js';

const mine = (userId: string) => ({ id: userId, type: 'SK' as const });

export const privacyApi = {
  data: (userId: string) => apiRequest(myDataRoute, { params: mine(userId) }).then((r) => r.data),
  requests: (userId: string) =>
    apiRequest(myPrivacyRequestsRoute, { params: mine(userId), spinner: false }).then((r) => r.data.items),
  file: (userId: string, body: FilePrivacyRequestBody) =>
    apiRequest(filePrivacyRequestRoute, { params: mine(userId), body, report: false }).then((r) => r.data),
  /**
   * The PDF is bytes, not JSON, and needs the session's token: fetched here and handed over as a
   * file, since a plain link would carry no Authorization header.
   */
  async pdf(userId: string): Promise<Blob> {
    const token = session.get(SESSION_KEYS.clientToken);
    const response = await fetch(urlOf(myDataPdfRoute, { params: mine(userId) }), {
      headers: token ? { authorization: token } : {},
    });
    if (!response.ok)
      throw new ApiError(
        response.status,
        'PDF_FAILED',
        'pdf failed',
        'No pudimos preparar tu PDF. Intenta de nuevo en un momento.',
      );
    return response.blob();
  },
};

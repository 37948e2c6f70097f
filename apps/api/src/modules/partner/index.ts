// The API of the lender's own systems (issue 30): /partner/v1, a partner key as the bearer.
import type { App } from '../../types.js';
import { registerPartnerAuth } from './partner-auth.js';
import { partnerDocument } from './partner-document.js';
import { partnerRoutes } from './partner.routes.js';

/** Under /partner/v1: the key's gate, then the routes; the document beside them, open to anyone. */
export async function partnerApi(scope: App): Promise<void> {
  scope.get('/openapi.json', { schema: { hide: true } }, async () => partnerDocument(scope));
  await scope.register(async (keyed: App) => {
    registerPartnerAuth(keyed);
    await keyed.register(partnerRoutes);
  });
}
export { partnerDocument };

import type { App } from '../../types.js';
import { identityDocumentRoutes } from './identity-documents.routes.js';
import { identityPhotoRoutes } from './identity-photos.routes.js';
import { metamapWebhookRoutes } from './metamap-webhook.routes.js';
import type { IdentityRouteOptions } from './route-parts.js';

/**
 * Identity's calls: the built-in widget's photos (in one form, or one at a time and the check that
 * takes them), with the signing link's gate, and MetaMap's webhook. Each in a context of its own:
 * the form parser, the image bodies and MetaMap's raw JSON stay with their routes.
 */
export async function identityRoutes(app: App, options: IdentityRouteOptions): Promise<void> {
  await app.register(identityDocumentRoutes, options);
  await app.register(identityPhotoRoutes, options);
  await app.register(metamapWebhookRoutes);
}

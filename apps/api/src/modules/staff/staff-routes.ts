import type { App } from '../../types.js';
import { staffFactorRoutes } from './factors.routes.js';
import { passwordLinkRoutes } from './password-link.routes.js';
import { staffSessionRoutes } from './session.routes.js';
import { ssoRoutes } from './sso.routes.js';
import { staffAccountRoutes } from './staff.routes.js';

/** Everything of staff accounts under /api/backoffice: login, second factors, password links, single sign-on, accounts. */
export async function staffRoutes(app: App): Promise<void> {
  await app.register(staffSessionRoutes);
  await app.register(staffFactorRoutes);
  await app.register(passwordLinkRoutes);
  await app.register(ssoRoutes);
  await app.register(staffAccountRoutes);
}

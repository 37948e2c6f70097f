import { passwordLinkOwnerCall, setPasswordWithLinkCall } from '@provee/domain';
import { register } from '../../contract/register.js';
import type { App } from '../../types.js';
import { createWorkerPool, type WorkerEntry } from '../../worker-pool.js';
import { passwordLinkOwner, setPasswordWithLink, type PasswordProblem } from './password-links.js';
import { PASSWORD_LOGIN_OFF } from './refusals.js';
import { staffDepsOf } from './staff-deps.js';

const PASSWORD_WORKER: WorkerEntry = { source: 'modules/staff/password-worker.ts', built: 'password-worker.js' };

/** The page a password link opens: whose link it is, then the new password (no session needed). */
export async function passwordLinkRoutes(app: App): Promise<void> {
  const rules = createWorkerPool(PASSWORD_WORKER, { threads: 1, maxWaiting: 20, timeoutMs: 5_000 });
  app.addHook('onClose', () => rules.close());
  const passwordProblem: PasswordProblem = (password, person) =>
    rules.run<string | null>('problem', { password, person });
  const deps = { ...staffDepsOf(app), passwordProblem };
  const passwordsOn = async () => {
    if (!app.config.STAFF_PASSWORD_LOGIN) throw PASSWORD_LOGIN_OFF(app.config.OIDC_NAME);
  };

  register(app, passwordLinkOwnerCall, { onRequest: passwordsOn }, async (request) => ({
    data: await passwordLinkOwner(deps.db, request.body.token, deps.clock()),
  }));

  register(app, setPasswordWithLinkCall, { onRequest: passwordsOn }, async (request, reply) => {
    await setPasswordWithLink(deps, request.body.token, request.body.password);
    return reply.status(204).send(null);
  });
}

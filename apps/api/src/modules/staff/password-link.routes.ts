import { passwordLinkBody, passwordLinkInfoResponse, passwordSetBody } from '@provee/domain';
import { z } from 'zod';
import type { App } from '../../types.js';
import { createWorkerPool, type WorkerEntry } from '../../worker-pool.js';
import { passwordLinkOwner, setPasswordWithLink, type PasswordProblem } from './password-links.js';
import { PASSWORD_LOGIN_OFF, staffErrors } from './refusals.js';

const PASSWORD_WORKER: WorkerEntry = { source: 'modules/staff/password-worker.ts', built: 'password-worker.js' };

/** The page a password link opens: whose link it is, then the new password (no session needed). */
export async function passwordLinkRoutes(app: App): Promise<void> {
  const rules = createWorkerPool(PASSWORD_WORKER, { threads: 1, maxWaiting: 20, timeoutMs: 5_000 });
  app.addHook('onClose', () => rules.close());
  const passwordProblem: PasswordProblem = (password, person) =>
    rules.run<string | null>('problem', { password, person });
  const passwordsOn = async () => {
    if (!app.config.STAFF_PASSWORD_LOGIN) throw PASSWORD_LOGIN_OFF(app.config.OIDC_NAME);
  };

  app.post(
    '/password-link',
    {
      onRequest: passwordsOn,
      schema: { body: passwordLinkBody, response: { 200: passwordLinkInfoResponse, ...staffErrors } },
    },
    async (request) => ({ data: await passwordLinkOwner(app.db, request.body.token, app.clock()) }),
  );

  app.post(
    '/password-link/password',
    { onRequest: passwordsOn, schema: { body: passwordSetBody, response: { 204: z.null(), ...staffErrors } } },
    async (request, reply) => {
      await setPasswordWithLink(
        {
          db: app.db,
          clock: app.clock,
          passwords: app.passwords,
          passwordProblem,
          loginKey: app.secrets.key('staff-login'),
        },
        request.body.token,
        request.body.password,
      );
      return reply.status(204).send(null);
    },
  );
}

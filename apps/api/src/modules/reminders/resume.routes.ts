import { redeemResumeLinkCall } from '@provee/domain';
import { register } from '../../contract/register.js';
import { AppError } from '../../errors.js';
import type { App } from '../../types.js';
import { redeemResumeLink } from './resume-links.js';

/** A reminder's resume link, spent once: the number to prove again and where the entry screen is. */
export async function resumeLinkRoutes(app: App): Promise<void> {
  register(
    app,
    redeemResumeLinkCall,
    { summary: 'Canjea el enlace de un recordatorio (un solo uso)' },
    async (request) => {
      const resumed = await redeemResumeLink(app, request.body.token);
      if (!resumed)
        throw new AppError(
          410,
          'RESUME_LINK_INVALID',
          'resume link used, expired or unknown',
          'Este enlace ya no funciona. Escribe tu número para continuar donde te quedaste.',
        );
      return { data: resumed };
    },
  );
}

import { healthCall } from '@provee/domain';
import { sql } from 'drizzle-orm';
import { register } from '../../contract/register.js';
import { databaseUnavailable } from '../../errors.js';
import type { App } from '../../types.js';

export async function healthRoutes(app: App): Promise<void> {
  register(
    app,
    healthCall,
    { config: { rateLimit: false }, summary: 'Estado del servicio y de su base de datos' },
    async (request) => {
      try {
        await app.db.execute(sql`select 1`);
      } catch (err) {
        request.log.error({ err }, 'database check failed');
        throw databaseUnavailable();
      }
      return { status: 'ok' as const, db: app.database.kind };
    },
  );
}

import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { databaseUnavailable } from '../../errors.js';
import type { App } from '../../types.js';

export async function healthRoutes(app: App): Promise<void> {
  app.get(
    '/health',
    {
      config: { rateLimit: false },
      schema: {
        summary: 'Estado del servicio y de su base de datos',
        response: { 200: z.object({ status: z.literal('ok'), db: z.enum(['pglite', 'postgres']) }) },
      },
    },
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

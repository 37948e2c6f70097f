import { toE164 } from '@provee/domain';
import { z } from 'zod';
import { avals, users } from '../../db/schema.js';
import type { App } from '../../types.js';

/** Seeds data for end-to-end tests (ENABLE_TEST_FACTORIES=true; refused in production). */
export async function testFactoryRoutes(app: App): Promise<void> {
  app.post(
    '/users',
    {
      schema: {
        hide: true,
        body: z.object({
          phone_number: z.string().regex(/^\d{10}$/),
          next_step: z.string().min(1).max(40),
          status: z.string().min(1).max(40).default('IN_PROGRESS'),
          avals: z.array(z.object({ aval_type: z.enum(['PARTNER', 'COLLATERAL']), phone: z.string().regex(/^\d{10}$/).nullable() })).default([]),
        }),
      },
    },
    async (request, reply) => {
      const { body } = request;
      const country = app.config.COUNTRY;
      const [user] = await app.db
        .insert(users)
        .values({ phoneE164: toE164(country, body.phone_number), nextStep: body.next_step, status: body.status })
        .returning({ id: users.id });
      if (body.avals.length > 0) {
        await app.db.insert(avals).values(
          body.avals.map((aval) => ({ userId: user!.id, avalType: aval.aval_type, phoneE164: aval.phone ? toE164(country, aval.phone) : null })),
        );
      }
      return reply.status(201).send({ data: { user_id: user!.id } });
    },
  );
}

import { APPLICATION_STATUSES, NEXT_STEPS } from '@provee/domain';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import type { App } from '../../types.js';
import { uniqueViolation } from '../application/index.js';
import { seedApplication } from './seed.store.js';

/** A seed of a phone or a tax id already on another application: the test's data clash, not the server. */
const ALREADY_SEEDED = new AppError(
  409,
  'TEST_SEED_TAKEN',
  'already seeded',
  'Ese teléfono o esa cédula ya están en otra solicitud de prueba.',
);

/** Seeds data for end-to-end tests (ENABLE_TEST_FACTORIES=true; refused in production). */
export async function testFactoryRoutes(app: App): Promise<void> {
  app.post(
    '/users',
    {
      schema: {
        hide: true,
        body: z.object({
          phone_number: z.string().regex(/^\d{10}$/),
          next_step: z.enum(NEXT_STEPS),
          status: z.enum(APPLICATION_STATUSES).default('IN_PROGRESS'),
          avals: z
            .array(
              z.object({
                aval_type: z.enum(['PARTNER', 'COLLATERAL']),
                phone: z
                  .string()
                  .regex(/^\d{10}$/)
                  .nullable(),
              }),
            )
            .default([]),
          complete: z.object({ tax_id: z.string().min(8).max(13), dob: z.string().optional() }).optional(),
        }),
      },
    },
    async (request, reply) => {
      const { body } = request;
      const user = await seedApplication(app, {
        phone: body.phone_number,
        nextStep: body.next_step,
        status: body.status,
        avals: body.avals.map((aval) => ({ avalType: aval.aval_type, phone: aval.phone })),
        complete: body.complete ? { taxId: body.complete.tax_id, dob: body.complete.dob } : undefined,
      }).catch((error: unknown) => {
        throw uniqueViolation(error) === null ? error : ALREADY_SEEDED;
      });
      return reply.status(201).send({ data: { user_id: user!.id } });
    },
  );
}

import type { RectifiableField } from '@provee/domain';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { businesses, users } from '../../db/schema.js';

/**
 * A correction the law owes the person (a rectification request), written by staff. Not the
 * applicant's own amendment (modules/application's amendApplication): that one is refused once the
 * application is past the business step and counts against the applicant's corrections, and a
 * legal rectification must be possible at any step. It changes a name, never where the
 * application stands. True when there was a row to correct.
 */
export async function rectifyField(
  tx: Executor,
  applicationId: string,
  field: RectifiableField,
  value: string,
  at: Date,
): Promise<boolean> {
  if (field === 'business_name') {
    const rows = await tx
      .update(businesses)
      .set({ name: value, updatedAt: at })
      .where(eq(businesses.userId, applicationId))
      .returning({ id: businesses.userId });
    return rows.length > 0;
  }
  const column = { name: 'name', lastname: 'lastname', maternal_lastname: 'maternalLastname' } as const;
  if (!(field in column)) return false;
  const rows = await tx
    .update(users)
    .set({ [column[field as keyof typeof column]]: value, updatedAt: at })
    .where(eq(users.id, applicationId))
    .returning({ id: users.id });
  return rows.length > 0;
}

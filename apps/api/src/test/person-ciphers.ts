import { eq } from 'drizzle-orm';
import type { FieldCipher } from '../crypto.js';
import { contractSigners, identityVerifications } from '../db/schema.js';
import { signerPersonId } from '../modules/identity/index.js';
import { personCipher } from '../modules/privacy/index.js';
import type { App } from '../types.js';

// Tests read what is stored with the key that sealed it (decision 032): the person's, not the app's.

/** The cipher of a contract signer's person (their photos and signature). */
export async function signerCipher(app: App, signerId: string): Promise<FieldCipher> {
  const [signer] = await app.db.select().from(contractSigners).where(eq(contractSigners.id, signerId));
  if (!signer) throw new Error(`no signer ${signerId}`);
  return personCipher(app, app.db, signerPersonId(signer));
}

/** The cipher of the person an identity verification was for (its documents). */
export async function verificationCipher(app: App, verificationId: string): Promise<FieldCipher> {
  const [check] = await app.db
    .select({ signerId: identityVerifications.signerId })
    .from(identityVerifications)
    .where(eq(identityVerifications.id, verificationId));
  if (!check) throw new Error(`no verification ${verificationId}`);
  return signerCipher(app, check.signerId);
}

import type { AvalType } from '@provee/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { AppCipher } from '../../crypto.js';
import type { Db, Executor, Tx } from '../../db/client.js';
import type { BureauProvider } from '../../providers/bureau/index.js';
import type { CatalogAddress } from '../catalog/index.js';
import type { Secrets } from '../../secrets.js';
import type { consumeCode, issueCode } from '../one-time-codes/index.js';
import type { PasswordHasher } from './password.js';
import type { PolicyBook } from '../policies/index.js';

/**
 * What the credit use cases use. Each function takes the part it needs (`Pick<CreditDeps, …>`);
 * routes and workers pass the app, which has all of it (`guarantorBureau` is decorated by app.ts).
 */
export interface CreditDeps {
  db: Db;
  clock: () => Date;
  config: Config;
  cipher: AppCipher;
  secrets: Secrets;
  policies: PolicyBook;
  passwords: PasswordHasher;
  bureau: BureauProvider;
  log: FastifyBaseLogger;
  guarantorBureau: GuarantorBureau;
}

/**
 * Codes and texts: modules/one-time-codes and modules/sms still take (part of) the app. These are
 * their own parameter types, so they narrow here when those modules take smaller deps.
 */
/** What a bureau attempt uses: the query, the bureau, the policy that decides on its answer. */
export type BureauDeps = Pick<
  CreditDeps,
  'db' | 'clock' | 'config' | 'cipher' | 'policies' | 'bureau' | 'log' | 'guarantorBureau'
>;

export type CodeDeps = Parameters<typeof issueCode>[0] & Parameters<typeof consumeCode>[0];

/**
 * The guarantor's side of their bureau query. modules/guarantors provides it: it records its
 * consents through this module, so this module cannot import it (the loop would make the two one).
 */
export interface GuarantorBureau {
  /** Who the bureau is asked about: the guarantor's type, name and tax id (as stored), and who they are when known. */
  subject(
    deps: { db: Executor; cipher: AppCipher; clock: () => Date; config: Pick<Config, 'COUNTRY'> },
    avalId: string,
  ): Promise<{ avalType: AvalType; name: string; taxId: string | null; person: GuarantorPerson | null } | undefined>;
  /** The policy's guarantor rules decided (in the decision's transaction): their status follows. */
  decided(tx: Tx, avalId: string, approved: boolean, at: Date): Promise<void>;
}

/** A guarantor as a bureau that files people by name, birth date and address asks about them. */
export interface GuarantorPerson {
  givenNames: string;
  lastname: string;
  maternalLastname: string | null;
  /** From the RFC (birthDateOfRfc): Mexico's tax id carries it. */
  birthDate: string | null;
  /** Their home address, as the catalogue placed it when they were named. */
  address: CatalogAddress | null;
}

import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { AppCipher } from '../../crypto.js';
import type { Db } from '../../db/client.js';
import type { Secrets } from '../../secrets.js';
import type { BureauDeps } from '../credit/index.js';
import type { consumeCode, issueCode } from '../one-time-codes/index.js';
import type { reverseOtpState, startReverseOtp } from '../phone-proof/index.js';
import type { MessageDeps } from '../messaging/index.js';

/**
 * What the guarantor use cases use. Each function takes the part it needs (`Pick<GuarantorDeps, …>`
 * and the types below); routes, workers and the back office pass the app, which has all of it.
 */
export interface GuarantorDeps {
  db: Db;
  clock: () => Date;
  config: Config;
  /** The guarantor's tax id is stored encrypted. */
  cipher: AppCipher;
  /** The audit id of a phone (the numbers a shopkeeper tried). */
  secrets: Secrets;
  /** The invitation link's token. */
  tokens: FastifyInstance['tokens'];
}

/** Recording a consent runs the guarantor's bureau query (modules/credit). */
export type ConsentDeps = GuarantorDeps & BureauDeps;

/**
 * Codes, texts and reverse-OTP sessions: modules/one-time-codes, modules/sms and modules/phone-proof
 * still take (part of) the app. These are their own parameter types, so they narrow here when those
 * modules take smaller deps.
 */
export type CodeDeps = Parameters<typeof issueCode>[0] & Parameters<typeof consumeCode>[0];
export type { MessageDeps };
export type ReverseOtpDeps = Parameters<typeof startReverseOtp>[0] & Parameters<typeof reverseOtpState>[0];

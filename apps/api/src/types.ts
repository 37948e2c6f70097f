import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { AppCipher } from './crypto.js';
import type { CatalogRevision } from './db/catalog-revision.js';
import type { Database, Db } from './db/client.js';
import type { TokenService } from './modules/auth/tokens.js';
import type { BureauProvider } from './providers/bureau/index.js';
import type { AddressSearchProvider } from './providers/places/index.js';
import type { ReverseOtpProvider } from './providers/reverse-otp/index.js';
import type { MessageWebhooks } from './providers/message-webhooks/index.js';
import type { SmsProvider } from './providers/sms/index.js';
import type { WhatsAppProvider } from './providers/whatsapp/index.js';
import type { Secrets } from './secrets.js';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** Where "now" comes from: the wall clock, or a test's hand-moved clock. */
export type Clock = () => Date;

// Each module declares the decorations it owns beside its code (modules/credit/decorations.ts, …).
declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    clock: Clock;
    secrets: Secrets;
    tokens: TokenService;
    sms: SmsProvider;
    /** The WhatsApp sender; null where none is configured (every message goes by SMS). */
    whatsapp: WhatsAppProvider | null;
    /** The messaging provider's delivery reports and replies (signed webhooks). */
    messageWebhooks: MessageWebhooks & { sign?: (rawBody: string) => string };
    reverseOtp: ReverseOtpProvider & { sign?: (rawBody: string) => string };
    /** The catalogue's revision (db/catalog-revision.ts): what the catalogue answers are kept by. */
    catalogRevision: CatalogRevision;
    places: AddressSearchProvider;
    cipher: AppCipher;
    bureau: BureauProvider;
  }
  interface FastifyContextConfig {
    /** Operations routes the web app may call with its public key (plus the user's token). */
    webApiKey?: boolean;
  }
}

import {
  countryCodeSchema,
  MESSAGE_CHANNELS,
  MESSAGE_KINDS,
  STAFF_STEP_UP_MINUTES,
  WEBHOOK_RETRY_SECONDS,
} from '@provee/domain';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { readP12 } from './pki/p12.js';
import { trustProxySchema } from './trust-proxy.js';

const bool = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
/** A comma-separated list, each item trimmed, empty ones dropped. */
const commaList = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

/** A JSON object in a variable, checked by `shape`. */
const jsonObject = <T extends z.ZodType>(shape: T) =>
  z
    .string()
    .transform((value, context) => {
      try {
        return JSON.parse(value) as unknown;
      } catch {
        context.addIssue({ code: 'custom', message: 'debe ser un objeto JSON' });
        return z.NEVER;
      }
    })
    .pipe(shape);

/** How long a link we send stays good, in seconds: from an hour to `max` (30 days unless said). */
const linkTtlSeconds = (byDefault: number, max = 30 * 86_400) =>
  z.coerce.number().int().min(3600).max(max).default(byDefault);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // The share of an applicant's successful quick reads that get a request line (decision 044).
  LOG_READ_SAMPLE: z.coerce.number().min(0).max(1).default(0.1),
  LOG_SLOW_REQUEST_MS: z.coerce.number().int().min(0).default(500),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'debe empezar con postgres:// o postgresql://')
    .optional(),
  COUNTRY: countryCodeSchema.default('do'),
  APP_NAME: z.string().min(1).default('Provee'),
  SUPPORT_CHAT_NUMBER: z
    .string()
    .regex(/^\+?\d{8,15}$/, 'debe ser un número de teléfono')
    .default('18095550100'),
  ADVISOR_PHONE: z
    .string()
    .regex(/^\+?\d{8,15}$/, 'debe ser un número de teléfono')
    .default('+18095550101'),
  PRIVACY_NOTICE_URL: z.url().default('https://provee.example/aviso-de-privacidad'),
  APP_STORE_URL: z.url().default('https://play.google.com/store/apps/details?id=example.provee'),
  PUBLIC_SITE_URL: z.url().default('https://provee.example'),
  // The address the public (and vendors' webhooks) reach this server at, behind any proxy.
  PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .refine((value) => !/[?#]/.test(value), 'no debe llevar consulta (?) ni fragmento (#)')
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
  CORS_ORIGINS: commaList.pipe(z.array(z.url())).default([]),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(10 * 1024 * 1024)
    .default(1024 * 1024),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  /** A hop count or the proxies' addresses; `true` is refused (trust-proxy.ts). */
  TRUST_PROXY: trustProxySchema.default(false),
  OPS_API_KEY: z.string().min(16, 'debe tener al menos 16 caracteres').optional(),
  WEB_DIST_DIR: z.string().min(1).optional(),
  APP_SECRET: z.string().min(32, 'debe tener al menos 32 caracteres').optional(),
  /** How long a guarantor's invitation link (its token) stays good. */
  AVAL_INVITE_TTL_SECONDS: linkTtlSeconds(3 * 86_400),
  TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(12 * 3600, 'como máximo 43200 (12 h)')
    .default(12 * 3600),

  SMS_PROVIDER: z.enum(['outbox', 'twilio']).default('outbox'),
  TWILIO_ACCOUNT_SID: z.string().min(1).optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  TWILIO_FROM: z
    .string()
    .regex(/^\+\d{8,15}$/, 'debe ser un número E.164')
    .optional(),
  TWILIO_API_URL: z.url().default('https://api.twilio.com'),
  /**
   * How long a request that sends an SMS (a code, a PIN, an invitation, a link) waits for the
   * message's first try by this process's job worker, woken at its commit: a code or PIN whose
   * first try failed answers 503 and holds no limit; past the wait the message follows from the
   * queue (decision 030).
   */
  SMS_SEND_WAIT_MS: z.coerce.number().int().min(0).max(30_000).default(5_000),

  /** Twilio's WhatsApp sender (E.164). Unset: no WhatsApp with SMS_PROVIDER=twilio, every message goes by SMS. */
  TWILIO_WHATSAPP_FROM: z
    .string()
    .regex(/^\+\d{8,15}$/, 'debe ser un número E.164')
    .optional(),
  /**
   * The approved WhatsApp template (Twilio Content SID, HX…) of each kind of message, as JSON:
   * {"phone-code":"HX…","reminder":"HX…"}. A kind without one goes by SMS.
   */
  WHATSAPP_TEMPLATES: jsonObject(
    z.partialRecord(
      z.enum(MESSAGE_KINDS),
      z.string().regex(/^HX[0-9a-fA-F]{32}$/, 'cada plantilla es un Content SID (HX y 32 caracteres hexadecimales)'),
    ),
  ).default({}),
  /**
   * The channel policy of this country, per kind of message, overriding its defaults (WhatsApp
   * first, SMS when it fails): JSON such as {"phone-code":["sms"]} (SMS only for codes).
   */
  MESSAGE_CHANNELS: jsonObject(
    z.partialRecord(
      z.enum(MESSAGE_KINDS),
      z
        .array(z.enum(MESSAGE_CHANNELS))
        .min(1)
        .max(2)
        .refine((channels) => new Set(channels).size === channels.length, 'un canal no se repite'),
    ),
  ).default({}),
  /** Minutes after the last step for each reminder (at most three), overriding the country's (60,1440,4320); empty: none. */
  REMINDER_DELAYS_MINUTES: commaList
    .pipe(
      z
        .array(
          z
            .string()
            .regex(/^\d+$/, 'minutos enteros')
            .transform(Number)
            .pipe(
              z
                .number()
                .int()
                .min(1)
                .max(30 * 24 * 60),
            ),
        )
        .max(3, 'como máximo tres recordatorios')
        .refine((minutes) => minutes.every((value, i) => i === 0 || value > minutes[i - 1]!), 'de menor a mayor'),
    )
    .optional(),
  /** How long a reminder's resume link works (single use). */
  RESUME_LINK_TTL_SECONDS: linkTtlSeconds(24 * 3600, 7 * 86_400),
  /** How long before a guarantor's or a signer's link expires they are reminded (once). */
  LINK_REMINDER_BEFORE_SECONDS: z.coerce
    .number()
    .int()
    .min(600)
    .max(7 * 86_400)
    .default(86_400),

  REVERSE_OTP_PROVIDER: z.enum(['simulator', 'twilio']).default('simulator'),
  REVERSE_OTP_DESTINATION: z
    .string()
    .regex(/^\+\d{8,15}$/, 'debe ser un número E.164')
    .default('+18095550111'),
  REVERSE_OTP_WEBHOOK_SECRET: z.string().min(16, 'debe tener al menos 16 caracteres').optional(),
  REVERSE_OTP_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(600),

  CODE_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(600),
  CODE_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  CODE_RESEND_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  CODE_MAX_PER_HOUR: z.coerce.number().int().min(1).max(100).default(5),
  SMS_NUMBERS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(20),
  // Password hashes at once (libuv has 4 threads; 2 leave room for files) and how many may wait.
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  PASSWORD_HASH_MAX_WAITING: z.coerce.number().int().min(0).max(10_000).default(200),
  // Uploaded images decoded at once on libuv's threads (the password hashes hold 2 of its 4; one
  // more leaves one for files), how many may wait, and the time a decode may take, waiting
  // included (docs/decisions/021).
  IMAGE_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  IMAGE_MAX_WAITING: z.coerce.number().int().min(0).max(1000).default(30),
  IMAGE_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(5_000),
  // Contract PDFs are built on worker threads: how many, how many builds may wait, and the time a
  // build may take, waiting included (past it the thread is stopped and the request answers 503).
  PDF_THREADS: z.coerce.number().int().min(1).max(16).default(1),
  PDF_MAX_WAITING: z.coerce.number().int().min(0).max(1000).default(32),
  PDF_TIMEOUT_MS: z.coerce.number().int().min(1).max(120_000).default(10_000),
  // After SIGTERM/SIGINT: how long a graceful stop may take before the process exits anyway.
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * Load shedding (@fastify/under-pressure, docs/OPERATIONS.md): past any of these a request is
   * answered 503 with Retry-After at once, and /readyz says not ready, so the balancer sends work
   * elsewhere. 0 turns a check off. The event loop's mean delay over a second; the heap in use
   * (by default 90% of V8's limit: past it the process would die of memory); the resident memory
   * (off by default: PGlite's memory lives in it).
   */
  PRESSURE_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  PRESSURE_MAX_HEAP_USED_MB: z.coerce
    .number()
    .int()
    .min(0)
    .default(() => Math.floor((getHeapStatistics().heap_size_limit * 0.9) / 2 ** 20)),
  PRESSURE_MAX_RSS_MB: z.coerce.number().int().min(0).default(0),
  PRESSURE_RETRY_AFTER_SECONDS: z.coerce.number().int().min(1).max(3_600).default(10),
  /**
   * The Prometheus metrics (docs/OPERATIONS.md), never public: at GET /metrics on the main port with
   * `Authorization: Bearer METRICS_TOKEN` (no token set: not served there), and/or on a port of their
   * own that the balancer does not expose (METRICS_HOST:METRICS_PORT, no token).
   */
  METRICS_TOKEN: z.string().min(16, 'debe tener al menos 16 caracteres').optional(),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),

  DATA_ENCRYPTION_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64').length === 32, 'debe ser una llave de 32 bytes en base64')
    .optional(),
  /**
   * Application keys retired by a rotation (comma-separated, base64): they still open what they
   * wrapped or encrypted until rewrapPersonKeys has moved every data key to DATA_ENCRYPTION_KEY
   * (decision 032).
   */
  DATA_ENCRYPTION_PREVIOUS_KEYS: commaList
    .refine(
      (keys) => keys.every((key) => Buffer.from(key, 'base64').length === 32),
      'debe ser una lista de llaves de 32 bytes en base64, separadas por comas',
    )
    .default([]),
  ADDRESS_PROVIDER: z.enum(['catalog', 'google']).default('catalog'),
  GOOGLE_PLACES_API_KEY: z.string().min(1).optional(),
  GOOGLE_PLACES_API_URL: z.url().default('https://maps.googleapis.com'),
  /** Version 1 of the credit policy on a fresh database; later versions are made in the back office (issue 33). */
  CREDIT_POLICY_FILE: z.string().min(1).optional(),
  /** A backtest over more decisions than this runs as a job, with progress (issue 33). */
  POLICY_BACKTEST_INLINE_MAX: z.coerce.number().int().min(0).max(10_000_000).default(20_000),
  LENDER_NAME: z.string().min(1).optional(),
  NIP_PREFILL: bool.default(false),
  BUREAU_LATENCY_MS: z.coerce.number().int().min(0).max(120_000).default(300),
  BUREAU_SLOW_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
  BUREAU_SYNC_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(4_000),
  BUREAU_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
  BUREAU_RETRY_BASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(5_000),
  BUREAU_RETRY_MAX_MS: z.coerce.number().int().min(100).max(86_400_000).default(600_000),
  BUREAU_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(10),
  /** The credit bureau: the built-in simulator, or Círculo de Crédito (COUNTRY=mx; decision 028). */
  BUREAU_PROVIDER: z.enum(['simulator', 'circulo']).default('simulator'),
  /** Círculo's base: production https://services.circulodecredito.com.mx, or the same under /sandbox. */
  CIRCULO_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  CIRCULO_API_KEY: z.string().min(1).optional(),
  CIRCULO_USERNAME: z.string().min(1).optional(),
  CIRCULO_PASSWORD: z.string().min(1).optional(),
  /** PEM: the lender's secp384r1 private key, whose certificate is registered in Círculo's portal. */
  CIRCULO_PRIVATE_KEY_FILE: z.string().min(1).optional(),
  /** PEM: Círculo's certificate (or public key), downloaded from its portal. */
  CIRCULO_CERTIFICATE_FILE: z.string().min(1).optional(),
  CIRCULO_PRODUCT_PATH: z
    .string()
    .regex(/^\/[A-Za-z0-9/_-]+$/, 'debe ser una ruta como /v2/rccficoscore')
    .default('/v2/rccficoscore'),
  /** What is sent as apellidoMaterno for a person with one surname (Círculo's sources name no value). */
  CIRCULO_MISSING_SURNAME: z.string().min(1).max(30).default('NO PROPORCIONADO'),
  /** The advisor-welcome video: unset, the built-in one (BUILTIN_ADVISOR_VIDEO); an https URL, the lender's; 'none', no video. */
  ADVISOR_VIDEO_URL: z.union([z.literal('none'), z.url({ protocol: /^https$/, normalize: true })]).optional(),

  /**
   * The contract's seal (issue 36): the lender's PKCS#12 (an RSA key and its certificate, with the
   * chain above it) that seals the signed PDF (PAdES), and its password. Unset outside production, a
   * development certificate made under DATA_DIR on first start (the PDF says so).
   */
  CONTRACT_SEAL_P12_FILE: z.string().min(1).optional(),
  CONTRACT_SEAL_P12_PASSWORD: z.string().default(''),
  /** The RFC 3161 time-stamping authority of the seal (PAdES B-T); unset outside production, a simulator. */
  CONTRACT_TSA_URL: z.url({ protocol: /^https?$/ }).optional(),
  CONTRACT_TSA_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** How often a sealed contract still waiting for its time-stamp is tried again, besides its own job's retries. */
  CONTRACT_TSA_SWEEP_CRON: z.string().min(9).default('*/10 * * * *'),
  /**
   * NOM-151 conservation (COUNTRY=mx): the simulator, or Mifiel's PSC API (its base URL, the
   * application's id and secret from Mifiel's dashboard).
   */
  NOM151_PROVIDER: z.enum(['simulator', 'mifiel']).default('simulator'),
  MIFIEL_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://app.mifiel.com/api/v1'),
  MIFIEL_APP_ID: z.string().min(1).optional(),
  MIFIEL_APP_SECRET: z.string().min(1).optional(),

  /** Identity checks before signing: the built-in widget and verifier simulator, or MetaMap. */
  IDENTITY_PROVIDER: z.enum(['simulator', 'metamap']).default('simulator'),
  /** How long the simulator takes to answer a check (SPEC §4: the review screen first asks at 30 s). */
  IDENTITY_SIMULATOR_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  /**
   * The job queue (decision 029): how often this process's workers look for due jobs (0: this
   * process runs none; others on the same database do), the pause before a job's first retry
   * (doubled for each next one), and how long a stop waits for the running jobs.
   */
  JOB_POLL_INTERVAL_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  JOB_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3_600).default(5),
  JOB_STOP_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  /**
   * Job kinds this process runs no worker for (names separated by commas): the other processes on
   * the database run them (e.g. only the replicas the bureau allows call it). Tests drive these by
   * hand (src/test/jobs.ts).
   */
  JOB_KINDS_OFF: commaList.default([]),
  /**
   * Webhooks out (issue 30): the pauses before each new try of a send, in seconds (Standard
   * Webhooks' schedule unless said: tests shorten it); the networks (CIDR) an endpoint may be in
   * although private, loopback or link-local (refused otherwise; test mode allows this machine,
   * where the dev receiver is); how long a send waits for the receiver's answer.
   */
  WEBHOOK_RETRY_SECONDS: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'debe ser una lista de segundos separados por comas')
    .transform((value) => value.split(',').map(Number))
    .optional(),
  WEBHOOK_ALLOWED_NETWORKS: commaList
    .refine(
      (networks) => networks.every((network) => ipaddr.isValidCIDR(network)),
      'debe ser una lista de redes en notación CIDR (10.0.0.0/8, fd00::/8), separadas por comas',
    )
    .optional(),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(60_000).default(15_000),
  /** Calls a partner key may make per minute (each key its own count). */
  PARTNER_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(600),
  /**
   * Calls per minute to the partner API from one address, whatever the key (a coarse guard before a
   * key is looked up, in place of RATE_LIMIT_PER_MINUTE there: a lender's systems share one address).
   */
  PARTNER_IP_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(6_000),
  /** Identity checks a signer may start (SPEC §2.4: 3 attempts by default). */
  IDENTITY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(3),
  METAMAP_CLIENT_ID: z.string().min(1).optional(),
  METAMAP_FLOW_ID: z.string().min(1).optional(),
  METAMAP_REVERIFICATION_FLOW_ID: z.string().min(1).optional(),
  METAMAP_WEBHOOK_SECRET: z.string().min(16, 'debe tener al menos 16 caracteres').optional(),
  /** How long a contract-signing link stays good, and the signed copy's link. */
  CONTRACT_LINK_TTL_SECONDS: linkTtlSeconds(7 * 86_400),
  CONTRACT_COPY_TTL_SECONDS: linkTtlSeconds(90 * 86_400, 365 * 86_400),

  /** Back office: sign in with a password (off: single sign-on only), and how long a second factor counts for step-up. */
  STAFF_PASSWORD_LOGIN: bool.default(true),
  STAFF_STEP_UP_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .max(12 * 3600)
    .default(STAFF_STEP_UP_MINUTES * 60),
  /** Single sign-on for staff through the lender's OpenID Connect provider (authorization code + PKCE). */
  OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_NAME: z.string().min(1).max(60).default('la cuenta de tu empresa'),
  OIDC_SCOPES: z.string().min(1).default('openid email profile'),
  /** Accept the provider's own second factor (an RFC 8176 `amr` such as mfa, otp, hwk) instead of asking for ours. */
  OIDC_ACCEPT_IDP_MFA: bool.default(false),

  WEB_LEAD_API_KEY: z.string().min(8).default('provee-web-lead-key'),
  IP_LOOKUP_URL: z.string().min(1).default('/api/v1/ip'),
  ENABLE_TEST_FACTORIES: bool.default(false),
  /**
   * Privacy requests (issue 31): the legal term to answer, in business days, when counsel reads the
   * law differently from the country's default (PRIVACY_DEADLINE_BUSINESS_DAYS in packages/domain),
   * and the public holidays that do not count ('YYYY-MM-DD', comma-separated).
   */
  PRIVACY_DEADLINE_BUSINESS_DAYS: z.coerce.number().int().min(1).max(90).optional(),
  PRIVACY_HOLIDAYS: commaList
    .pipe(z.array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'usa fechas AAAA-MM-DD separadas por comas')))
    .default([]),
});

export type Env = z.input<typeof envSchema>;

const isLoopback = (host: string) => host === 'localhost' || host === '127.0.0.1' || host === '[::1]';

export type Config = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {}

/** Parses the environment once. A wrong value names the variable and stops start-up. */
export function loadConfig(env: Record<string, string | undefined>) {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Configuración inválida:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  const problems: string[] = [];
  // Its meaning changed (docs/decisions/009): a value set for the old one must not be silently dropped.
  if (present.PROOF_STARTS_PER_IP_PER_HOUR !== undefined) {
    problems.push(
      'PROOF_STARTS_PER_IP_PER_HOUR: ya no existe; usa SMS_NUMBERS_PER_IP_PER_HOUR (números distintos por IP por hora)',
    );
  }
  // The background workers became job kinds of the queue (decision 030): a value set for the old
  // timers (0 kept a process from running them) must not be silently dropped.
  for (const [name, kinds] of [
    ['BUREAU_WORKER_INTERVAL_MS', 'bureau-query,bureau-consent-audit,remote-consent'],
    ['IDENTITY_WORKER_INTERVAL_MS', 'identity-simulated-answer'],
  ] as const)
    if (present[name] !== undefined)
      problems.push(
        `${name}: ya no existe; estos trabajos van por la cola (JOB_POLL_INTERVAL_MS; para no correrlos en este proceso, JOB_KINDS_OFF=${kinds})`,
      );
  // Test mode: the /dev tools (simulated phone, SMS outbox) and the fixed ops key. They let anyone
  // prove any number, so never in production and only while a simulator is what is configured.
  const testMode =
    config.NODE_ENV !== 'production' &&
    (config.SMS_PROVIDER === 'outbox' || config.REVERSE_OTP_PROVIDER === 'simulator');
  if (!testMode && config.NODE_ENV !== 'production' && !config.OPS_API_KEY)
    problems.push('OPS_API_KEY: es obligatoria fuera del modo de prueba');
  if (config.NODE_ENV === 'production') {
    if (!config.OPS_API_KEY) problems.push('OPS_API_KEY: es obligatoria en producción');
    if (!config.APP_SECRET) problems.push('APP_SECRET: es obligatoria en producción');
    if (config.ENABLE_TEST_FACTORIES) problems.push('ENABLE_TEST_FACTORIES: no se permite en producción');
    if (config.NIP_PREFILL) problems.push('NIP_PREFILL: no se permite en producción');
    if (!config.CONTRACT_SEAL_P12_FILE)
      problems.push('CONTRACT_SEAL_P12_FILE: es obligatoria en producción (el certificado que sella los contratos)');
    if (!config.CONTRACT_TSA_URL)
      problems.push('CONTRACT_TSA_URL: es obligatoria en producción (la autoridad que fecha el sello, RFC 3161)');
    if (config.COUNTRY === 'mx' && config.NOM151_PROVIDER === 'simulator')
      problems.push('NOM151_PROVIDER: en producción en México debe ser un proveedor real (mifiel)');
  }
  if (config.ADDRESS_PROVIDER === 'google' && !config.GOOGLE_PLACES_API_KEY) {
    problems.push('GOOGLE_PLACES_API_KEY: es obligatoria con ADDRESS_PROVIDER=google');
  }
  if (config.SMS_PROVIDER === 'twilio') {
    for (const name of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const) {
      if (!config[name]) problems.push(`${name}: es obligatoria con SMS_PROVIDER=twilio`);
    }
  }
  if (config.TWILIO_WHATSAPP_FROM && config.SMS_PROVIDER !== 'twilio')
    problems.push('TWILIO_WHATSAPP_FROM: solo se usa con SMS_PROVIDER=twilio');
  if (config.TWILIO_WHATSAPP_FROM && !config.PUBLIC_BASE_URL)
    problems.push(
      'PUBLIC_BASE_URL: es obligatoria con TWILIO_WHATSAPP_FROM (Twilio informa ahí si un WhatsApp no llegó, para enviarlo por SMS)',
    );
  if (config.REVERSE_OTP_PROVIDER === 'twilio') {
    if (!config.TWILIO_AUTH_TOKEN) problems.push('TWILIO_AUTH_TOKEN: es obligatoria con REVERSE_OTP_PROVIDER=twilio');
    if (!config.PUBLIC_BASE_URL) {
      problems.push(
        'PUBLIC_BASE_URL: es obligatoria con REVERSE_OTP_PROVIDER=twilio (la dirección pública con la que Twilio llama al webhook)',
      );
    }
    // The default is the simulator's made-up number: users must be sent to the real Twilio number.
    if (present.REVERSE_OTP_DESTINATION === undefined) {
      problems.push(
        'REVERSE_OTP_DESTINATION: es obligatoria con REVERSE_OTP_PROVIDER=twilio (el número de Twilio al que escriben los usuarios)',
      );
    }
  }
  if (config.IDENTITY_PROVIDER === 'metamap') {
    for (const name of [
      'METAMAP_CLIENT_ID',
      'METAMAP_FLOW_ID',
      'METAMAP_REVERIFICATION_FLOW_ID',
      'METAMAP_WEBHOOK_SECRET',
    ] as const) {
      if (!config[name]) problems.push(`${name}: es obligatoria con IDENTITY_PROVIDER=metamap`);
    }
  }
  if (config.BUREAU_PROVIDER === 'circulo') problems.push(...circuloProblems(config));
  if (config.NOM151_PROVIDER === 'mifiel') {
    if (config.COUNTRY !== 'mx') problems.push('NOM151_PROVIDER: mifiel solo se usa con COUNTRY=mx');
    for (const name of ['MIFIEL_APP_ID', 'MIFIEL_APP_SECRET'] as const)
      if (!config[name]) problems.push(`${name}: es obligatoria con NOM151_PROVIDER=mifiel`);
  }
  if (config.CONTRACT_SEAL_P12_FILE) {
    const problem = sealFileProblem(config.CONTRACT_SEAL_P12_FILE, config.CONTRACT_SEAL_P12_PASSWORD);
    if (problem) problems.push(`CONTRACT_SEAL_P12_FILE: ${problem}`);
  }
  if (config.OIDC_ISSUER) {
    if (!config.OIDC_CLIENT_ID) problems.push('OIDC_CLIENT_ID: es obligatoria con OIDC_ISSUER');
    if (!config.PUBLIC_BASE_URL)
      problems.push('PUBLIC_BASE_URL: es obligatoria con OIDC_ISSUER (la dirección de regreso del inicio de sesión)');
    if (new URL(config.OIDC_ISSUER).protocol === 'http:' && !isLoopback(new URL(config.OIDC_ISSUER).hostname))
      problems.push('OIDC_ISSUER: debe usar https (http solo en esta misma máquina)');
  }
  if (!config.STAFF_PASSWORD_LOGIN && !config.OIDC_ISSUER)
    problems.push('STAFF_PASSWORD_LOGIN: para desactivar las contraseñas configura antes OIDC_ISSUER');
  if (problems.length > 0) {
    throw new ConfigError(`Configuración inválida:\n${problems.map((line) => `  ${line}`).join('\n')}`);
  }
  return {
    ...config,
    LENDER_NAME: config.LENDER_NAME ?? config.APP_NAME,
    TEST_MODE: testMode,
    WEBHOOK_RETRY_SECONDS: config.WEBHOOK_RETRY_SECONDS ?? [...WEBHOOK_RETRY_SECONDS],
    WEBHOOK_ALLOWED_NETWORKS: config.WEBHOOK_ALLOWED_NETWORKS ?? (testMode ? ['127.0.0.0/8', '::1/128'] : []),
    // In test mode a fixed key keeps the operations API usable on a fresh clone (required otherwise).
    OPS_API_KEY: config.OPS_API_KEY ?? 'provee-dev-ops-key-not-for-production',
  };
}

/** What stops Círculo's adapter from working, each naming its variable: missing values, unreadable or wrong keys. */
function circuloProblems(config: z.infer<typeof envSchema>): string[] {
  const problems: string[] = [];
  if (config.COUNTRY !== 'mx') problems.push('BUREAU_PROVIDER: circulo solo está disponible con COUNTRY=mx');
  for (const name of [
    'CIRCULO_BASE_URL',
    'CIRCULO_API_KEY',
    'CIRCULO_USERNAME',
    'CIRCULO_PASSWORD',
    'CIRCULO_PRIVATE_KEY_FILE',
    'CIRCULO_CERTIFICATE_FILE',
  ] as const) {
    if (!config[name]) problems.push(`${name}: es obligatoria con BUREAU_PROVIDER=circulo`);
  }
  // The NIP audit's `usuario` is this user: 10 to 13 characters (audit-firma-client-php).
  if (config.CIRCULO_USERNAME && (config.CIRCULO_USERNAME.length < 10 || config.CIRCULO_USERNAME.length > 13))
    problems.push('CIRCULO_USERNAME: debe tener de 10 a 13 caracteres (el usuario de consulta de Círculo)');
  if (config.CIRCULO_BASE_URL?.startsWith('http:') && config.NODE_ENV === 'production')
    problems.push('CIRCULO_BASE_URL: debe usar https en producción');
  if (config.CIRCULO_PRIVATE_KEY_FILE) {
    const problem = keyFileProblem(config.CIRCULO_PRIVATE_KEY_FILE, (pem) => {
      const key = createPrivateKey(pem);
      if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'secp384r1')
        throw new Error('no es una llave EC secp384r1');
    });
    if (problem) problems.push(`CIRCULO_PRIVATE_KEY_FILE: ${problem}`);
  }
  if (config.CIRCULO_CERTIFICATE_FILE) {
    const problem = keyFileProblem(config.CIRCULO_CERTIFICATE_FILE, (pem) => createPublicKey(pem));
    if (problem) problems.push(`CIRCULO_CERTIFICATE_FILE: ${problem}`);
  }
  return problems;
}

/** Whether the seal's PKCS#12 opens with its password and holds an RSA key with its certificate. */
function sealFileProblem(file: string, password: string): string | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    return `no se pudo leer ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
  try {
    readP12(bytes, password);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

function keyFileProblem(file: string, check: (pem: string) => unknown): string | null {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    return `no se pudo leer ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
  try {
    check(pem);
    return null;
  } catch (error) {
    return `${file} no es válida: ${(error as Error).message}`;
  }
}

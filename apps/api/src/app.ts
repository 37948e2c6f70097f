import { randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { createCatalogRevision } from './db/catalog-revision.js';
import {
  clientErrorHandler,
  frameworkErrors,
  isDatabaseUnavailable,
  notFoundEnvelope,
  registerErrorHandling,
} from './errors.js';
import { registerInputGuard } from './input-guard.js';
import { loggerOptions, stdoutPerTurn } from './logger.js';
import { OneLinePerRequest } from './request-lines.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { backofficeApi } from './modules/backoffice/index.js';
import { configRoutes } from './modules/config/config.routes.js';
import { publicConfig } from './modules/config/public-config.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { probeRoutes } from './modules/health/probes.routes.js';
import { API_PATH, DEFAULT_WEB_DIST_DIR } from './paths.js';
import { requireApiKey } from './plugins/app/ops-auth.js';
import { registerOpenApi } from './plugins/external/openapi.js';
import { registerCompression } from './plugins/external/compression.js';
import { registerLoadShedding } from './plugins/external/load-shedding.js';
import { registerSecurity } from './plugins/external/security.js';
import { loadWebBuild, registerSpa } from './plugins/external/spa.js';
import { createAppCipher } from './crypto.js';
import { createTokenService } from './modules/auth/tokens.js';
import { catalogRoutes } from './modules/catalog/catalog.routes.js';
import { creditRoutes } from './modules/credit/credit.routes.js';
import {
  guarantorBureau,
  guarantorInvitationRoutes,
  guarantorRoutes,
  invitationMessages,
  remoteConsentJob,
} from './modules/guarantors/index.js';
import { bureauJobsSweep, bureauQueryJob, consentAuditJob } from './modules/credit/index.js';
import { createImageDecoder, identityDeps, simulatedAnswerJob } from './modules/identity/index.js';
import {
  contractCopyJob,
  createContractSealer,
  sealCompletionJob,
  sealSweepJob,
  copyMessages,
  createContractRenderer,
  signingDeps,
  signingInvitationJob,
  signingLinkMessages,
  signingRoutes,
} from './modules/signing/index.js';
import { codeMessages } from './modules/one-time-codes/index.js';
import {
  legacySmsJob,
  messageSendJob,
  messageWebhookRoutes,
  queueSimulatedReports,
  simulatedDeliveryJob,
} from './modules/messaging/index.js';
import { reminderMessages, remindersJob, resumeLinkRoutes } from './modules/reminders/index.js';
import { loginCounterSweepJob } from './modules/staff/index.js';
import { retentionScheduleJob } from './modules/privacy/index.js';
import { webhookSendJob, webhookSweepJob } from './modules/integrations/index.js';
import { partnerApi } from './modules/partner/index.js';
import { createJobQueue, queueDepth } from './modules/jobs/index.js';
import { instrumented } from './observability/instrument.js';
import { readFrom, stopReadingFrom } from './observability/metrics.js';
import { registerMetrics } from './plugins/app/metrics.js';
import type { Tracing } from './observability/tracing.js';
import { createPasswordHasher } from './modules/credit/password.js';
import { createPolicyBook, loadPolicy } from './modules/policies/index.js';
import { backtestJob } from './modules/policy-lab/index.js';
import { createBureau, type BureauProvider } from './providers/bureau/index.js';
import { registrationRoutes } from './modules/registration/registration.routes.js';
import { createAddressSearch } from './providers/places/index.js';
import { clientErrorRoutes } from './modules/client-errors/client-errors.routes.js';
import { devRoutes } from './modules/dev/dev.routes.js';
import { leadRoutes } from './modules/leads/leads.routes.js';
import { networkRoutes } from './modules/network/network.routes.js';
import { phoneProofRoutes } from './modules/phone-proof/phone-proof.routes.js';
import { reverseOtpWebhookRoutes } from './modules/phone-proof/webhook.routes.js';
import { userRoutes } from './modules/users/users.routes.js';
import { privacyRoutes } from './modules/privacy-requests/index.js';
import { createReverseOtpProvider } from './providers/reverse-otp/index.js';
import { createMessageWebhooks, createSimulatedDelivery } from './providers/message-webhooks/index.js';
import { createSmsProvider } from './providers/sms/index.js';
import { createWhatsAppProvider } from './providers/whatsapp/index.js';
import { createSecrets } from './secrets.js';
import { fastifyTrustProxy } from './trust-proxy.js';
import type { App, Clock } from './types.js';

z.config(z.locales.es());

export interface BuildOptions {
  /** Where logs go; tests pass a stream to read them. */
  logStream?: NodeJS.WritableStream;
  clock?: Clock;
  /** A stand-in bureau (tests that watch what the bureau is asked and when). */
  bureau?: BureauProvider;
  /** OpenTelemetry, when the server started it (observability/tracing.ts): its Fastify plugin. */
  tracing?: Pick<Tracing, 'fastifyPlugin'> | null;
}

/** The registration API's routes under /api, registered in this order (the back office's follow, under /backoffice). */
const API_ROUTES = [
  healthRoutes,
  configRoutes,
  networkRoutes,
  phoneProofRoutes,
  reverseOtpWebhookRoutes,
  messageWebhookRoutes,
  resumeLinkRoutes,
  userRoutes,
  clientErrorRoutes,
  catalogRoutes,
  registrationRoutes,
  creditRoutes,
  guarantorRoutes,
  guarantorInvitationRoutes,
  signingRoutes,
  privacyRoutes,
];

/** Builds the whole product around an open database: SPA at /, registration API at /api, operations at /ops. */
export async function buildApp(config: Config, database: Database, options: BuildOptions = {}): Promise<App> {
  const logger = loggerOptions(config.LOG_LEVEL);
  const app = Fastify({
    logger: { ...logger, stream: options.logStream ?? stdoutPerTurn() },
    logController: new OneLinePerRequest({ readSample: config.LOG_READ_SAMPLE, slowMs: config.LOG_SLOW_REQUEST_MS }),
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: fastifyTrustProxy(config.TRUST_PROXY),
    genReqId: (request) => {
      // While tracing, the request's id in every log line is its trace id (the HTTP span is current).
      const traceId = options.tracing ? trace.getActiveSpan()?.spanContext().traceId : undefined;
      if (traceId) return traceId;
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('clock', options.clock ?? (() => new Date()));
  const secrets = createSecrets(config);
  app.decorate('secrets', secrets);
  app.decorate(
    'tokens',
    createTokenService(secrets.key('tokens'), config.TOKEN_TTL_SECONDS, () => app.clock().getTime()),
  );
  const simulatedDelivery = createSimulatedDelivery();
  app.decorate('sms', instrumented('sms', createSmsProvider(config, database.db, simulatedDelivery)));
  const whatsapp = createWhatsAppProvider(config, database.db, simulatedDelivery);
  app.decorate('whatsapp', whatsapp && instrumented('whatsapp', whatsapp));
  app.decorate('messageWebhooks', createMessageWebhooks(config, secrets.key('message-webhooks')));
  const webhookKey = config.REVERSE_OTP_WEBHOOK_SECRET
    ? Buffer.from(config.REVERSE_OTP_WEBHOOK_SECRET)
    : secrets.key('reverse-otp-webhook');
  app.decorate('reverseOtp', instrumented('reverse-otp', createReverseOtpProvider(config, webhookKey)));
  app.decorate(
    'catalogRevision',
    createCatalogRevision(database.db, () => app.clock().getTime()),
  );
  app.decorate('places', instrumented('places', createAddressSearch(config, database.db, app.catalogRevision)));
  const encryptionKey = config.DATA_ENCRYPTION_KEY
    ? Buffer.from(config.DATA_ENCRYPTION_KEY, 'base64')
    : secrets.key('data-encryption');
  app.decorate(
    'cipher',
    createAppCipher(
      encryptionKey,
      config.DATA_ENCRYPTION_PREVIOUS_KEYS.map((key) => Buffer.from(key, 'base64')),
      secrets.key('lookup-hash'),
    ),
  );
  // Version 1 of a fresh database; the live version is read from the database at each use (issue 33).
  const firstPolicy = loadPolicy(config.CREDIT_POLICY_FILE, config.COUNTRY);
  app.decorate(
    'policies',
    createPolicyBook({
      db: database.db,
      country: config.COUNTRY,
      first: firstPolicy,
      clock: () => app.clock(),
      log: app.log,
    }),
  );
  app.addHook('onReady', async () => {
    try {
      await app.policies.ensureFirstVersion();
    } catch (error) {
      // A database not reachable yet does not stop the start (/readyz says so): the first use seeds it.
      if (!isDatabaseUnavailable(error)) throw error;
      app.log.warn({ err: error }, 'credit policy: version 1 not checked, the database is unavailable');
    }
  });
  app.decorate(
    'passwords',
    createPasswordHasher({
      concurrency: config.PASSWORD_HASH_CONCURRENCY,
      maxWaiting: config.PASSWORD_HASH_MAX_WAITING,
    }),
  );
  app.decorate('bureau', instrumented('bureau', options.bureau ?? createBureau(config)));
  app.decorate('guarantorBureau', guarantorBureau);
  // Uploaded images and contract PDFs: decoded and built off the event loop, within time bounds (decision 021).
  app.decorate(
    'images',
    createImageDecoder({
      concurrency: config.IMAGE_CONCURRENCY,
      maxWaiting: config.IMAGE_MAX_WAITING,
      timeoutMs: config.IMAGE_TIMEOUT_MS,
    }),
  );
  app.decorate(
    'pdfRenderer',
    createContractRenderer({
      threads: config.PDF_THREADS,
      maxWaiting: config.PDF_MAX_WAITING,
      timeoutMs: config.PDF_TIMEOUT_MS,
    }),
  );
  app.addHook('onClose', () => app.pdfRenderer.close());
  app.decorate(
    'contractSealer',
    createContractSealer(config, (source) => app.pdfRenderer.credential(source)),
  );
  // The seal read, and on the first start the development certificates made (never in production).
  app.contractSealer.prepare();
  app.decorate(
    'jobs',
    createJobQueue(database, app.log, {
      pollMs: config.JOB_POLL_INTERVAL_MS,
      retryDelaySeconds: config.JOB_RETRY_DELAY_SECONDS,
      graceMs: config.JOB_STOP_GRACE_MS,
      kindsOff: config.JOB_KINDS_OFF,
    }),
  );
  // Before every route: the request's span is named by its route (decision 036).
  if (options.tracing) await app.register(options.tracing.fastifyPlugin);
  registerErrorHandling(app);
  registerInputGuard(app);
  await registerLoadShedding(app, config);
  await app.register(probeRoutes);
  registerMetrics(app, config);

  const web = await loadWebBuild(app, config.WEB_DIST_DIR ?? DEFAULT_WEB_DIST_DIR, publicConfig(config));
  await registerSecurity(app, config, web?.inline);
  registerCompression(app);
  await registerOpenApi(app, config.APP_NAME);

  await app.register(
    async (api: App) => {
      for (const routes of API_ROUTES) await api.register(routes);
      await api.register(backofficeApi, { prefix: '/backoffice' });
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/api' },
  );
  await app.register(
    async (ops: App) => {
      requireApiKey(ops, { ops: config.OPS_API_KEY, web: config.WEB_LEAD_API_KEY });
      await ops.register(auditRoutes);
      await ops.register(leadRoutes);
    },
    { prefix: '/ops' },
  );

  await app.register(partnerApi, { prefix: '/partner/v1' });

  if (config.TEST_MODE) await app.register(devRoutes, { prefix: '/dev' });
  app.jobs.define(contractCopyJob(signingDeps(app)));
  app.jobs.define(sealCompletionJob(signingDeps(app)));
  app.jobs.define(sealSweepJob(signingDeps(app)));
  app.jobs.define(signingInvitationJob(signingDeps(app)));
  app.jobs.define(webhookSendJob(app));
  app.jobs.define(webhookSweepJob(app));
  // Every background job is a kind of the one queue (decision 030).
  app.jobs.define(
    messageSendJob(app, [
      codeMessages(app),
      invitationMessages(app),
      signingLinkMessages(app),
      copyMessages(app),
      reminderMessages(app),
    ]),
  );
  app.jobs.define(legacySmsJob(app));
  app.jobs.define(bureauQueryJob(app));
  app.jobs.define(consentAuditJob(app));
  app.jobs.define(bureauJobsSweep(app));
  app.jobs.define(remoteConsentJob(app));
  app.jobs.define(simulatedAnswerJob(identityDeps(app)));
  app.jobs.define(loginCounterSweepJob(app));
  app.jobs.define(retentionScheduleJob(app));
  app.jobs.define(remindersJob(app));
  app.jobs.define(backtestJob(app));
  // The simulators' delivery reports: jobs that post them through the real status webhook.
  app.jobs.define(simulatedDeliveryJob(app));
  simulatedDelivery.connect(queueSimulatedReports(app));
  app.addHook('onReady', () => app.jobs.start());
  // The metrics' gauges read this app's queue and database (one app per process outside tests).
  const scraped = { jobQueue: () => queueDepth(app.db), embeddedQueue: () => database.waiting() };
  readFrom(scraped);
  app.addHook('onClose', async () => stopReadingFrom(scraped));
  app.addHook('onClose', () => app.jobs.stop());

  const spa = web && (await registerSpa(app, web));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isApi = API_PATH.test(path);
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (spa && wantsPage && !isApi && !path.startsWith('/assets/')) return spa.sendIndex(reply);
    return reply.status(404).send(notFoundEnvelope());
  });

  return app;
}

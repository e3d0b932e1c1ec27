import { createSandbox, type Sandbox } from '@vigil/sandbox';
import { buildApp } from './app.ts';
import { createCheckers } from './checks/all-checkers.ts';
import {
  ConfigError,
  loadConfig,
  SANDBOX_GOOGLE_ADS,
  SANDBOX_META,
  SANDBOX_SHOPIFY,
  SANDBOX_STRIPE,
  SANDBOX_TWILIO,
  type Config,
} from './config.ts';
import { openDatabase } from './db/database.ts';
import { createStore } from './db/store.ts';
import { createWakeups } from './db/wakeups.ts';
import { createCheckEngine, type CheckEngine } from './engine/check-engine.ts';
import { maintainResultPartitions, rollUpPacingFor } from './engine/retention.ts';
import { startJobs } from './jobs/job-queue.ts';
import { systemClock } from './lib/clock.ts';
import { createAckLinks } from './modules/alerts/ack-link.ts';
import { createBillingWorker } from './modules/billing/billing-worker.ts';
import { sandboxStripePrices } from './modules/billing/sandbox-prices.ts';
import { DEFAULT_PHONE_POLICY } from './delivery/delivery.ts';
import { createEmailSender } from './notify/email.ts';
import { createTwilioClient } from './notify/twilio.ts';
import { createTokenCipher, keysFromDataDir, parseTokenKeys, type TokenCipher } from './lib/token-cipher.ts';
import { createShopifyIntegration } from './services/shopify/index.ts';
import { createGoogleAdsIntegration } from './services/google-ads/index.ts';
import { createMetaAdsIntegration } from './services/meta-ads/index.ts';

/** The key that seals account tokens: TOKEN_ENCRYPTION_KEYS, else (embedded) a key file in the data folder. */
async function tokenCipherOf(config: Config): Promise<TokenCipher | undefined> {
  if (!config.shopify && !config.googleAds && !config.meta) return undefined;
  const keys =
    config.tokenEncryptionKeys ?? (config.databaseUrl ? undefined : await keysFromDataDir(config.dataDir));
  return keys ? createTokenCipher(parseTokenKeys(keys)) : undefined;
}

/**
 * Starts Vigil: config → database (+ migrations) → app → jobs → check engine → listen. Ctrl-C or SIGTERM
 * stops it in reverse: no new requests, running checks and jobs finish, then the database closes.
 */
async function main(config: Config): Promise<void> {
  const serveHttp = config.role !== 'worker';
  const database = await openDatabase(
    config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir },
  );
  await database.migrate();
  const store = createStore(database.db);
  const clock = systemClock;
  const tokenCipher = await tokenCipherOf(config);

  // The sandbox is what the browser and this server talk to in embedded mode; a worker-only process has no
  // HTTP server to host it.
  const sandbox: Sandbox | undefined =
    config.sandbox && serveHttp
      ? createSandbox({
          publicUrl: config.publicUrl,
          smtpPort: config.sandboxSmtpPort,
          oidcClientId: config.oidc?.clientId ?? 'vigil-local',
          oidcClientSecret: config.oidc?.clientSecret ?? 'vigil-local-secret',
          redirectUris: [`${config.publicUrl}/app/oauth`],
          // The sandbox plays the Twilio account Vigil uses when no real one is configured.
          twilio:
            config.twilio?.accountSid === SANDBOX_TWILIO.accountSid
              ? { ...SANDBOX_TWILIO, phoneNumber: config.twilio.fromNumber }
              : undefined,
          // The sandbox plays the Shopify app Vigil uses when no real one is configured.
          shopify: config.shopify?.clientId === SANDBOX_SHOPIFY.clientId ? { ...SANDBOX_SHOPIFY } : undefined,
          // And the Google Ads app (OAuth client and developer token).
          google:
            config.googleAds?.clientId === SANDBOX_GOOGLE_ADS.clientId
              ? { ...SANDBOX_GOOGLE_ADS }
              : undefined,
          // And the Meta app (Facebook Login and the Graph API).
          meta: config.meta?.appId === SANDBOX_META.appId ? { ...SANDBOX_META } : undefined,
          // And the Stripe account: its prices, Checkout, the customer portal and signed webhooks.
          stripe: config.stripe?.sandbox
            ? { ...SANDBOX_STRIPE, prices: sandboxStripePrices(), apiPort: config.sandboxStripePort }
            : undefined,
        })
      : undefined;

  const runWorkers = config.role !== 'api';
  const wakeups = createWakeups(database);
  const jobs = await startJobs({ database, runWorkers, wakeups });
  const app = await buildApp({
    config,
    database,
    wakeups,
    queue: jobs.queue,
    sandbox: sandbox?.plugin,
    tokenCipher,
  });
  // The partitions of check results, from the retention window's start to a day ahead, before anything is
  // checked or imported (the roll-up job keeps them from then on). Should it fail, the DEFAULT partition takes
  // results until the job's next run.
  await maintainResultPartitions(store, clock.now(), config.resultRetentionHours).then(
    (done) => app.log.info(done, 'check result partitions maintained'),
    (error: unknown) => app.log.warn({ err: error }, 'check result partitions: maintenance failed'),
  );
  const email = createEmailSender({ smtpUrl: config.smtpUrl, from: config.mailFrom });
  let engine: CheckEngine | undefined;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing requests and running jobs');
    const steps: [string, () => Promise<void> | void][] = [
      ['http', () => app.close()],
      ['checks', () => engine?.stop()],
      ['jobs', () => jobs.stop()],
      ['email', () => email.close()],
      ['sandbox', () => sandbox?.stop()],
      ['wakeups', () => wakeups.close()],
      ['database', () => database.close()],
    ];
    let failed = false;
    for (const [name, step] of steps) {
      try {
        await step();
      } catch (error) {
        failed = true;
        app.log.error({ err: error, step: name }, 'stopping failed');
      }
    }
    app.log.info('stopped');
    process.exit(failed ? 1 : 0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));

  if (sandbox) {
    const { smtpPort, stripePort } = await sandbox.start();
    app.log.info({ smtpPort, stripePort, page: `${config.publicUrl}/sandbox` }, 'sandbox providers started');
    if (config.sandboxPublic) {
      app.log.warn(
        { page: `${config.publicUrl}/sandbox`, host: config.host },
        'SANDBOX IS PUBLIC (SANDBOX_ALLOW_PUBLIC): anyone who reaches this server reads every email and reset code, grants plans and knows the Twilio token. Never use it with real people or data.',
      );
    }
  }
  const ackLinks = createAckLinks({ serverSecrets: store.serverSecrets, clock, publicUrl: config.publicUrl });
  await jobs.run({
    email,
    log: app.log,
    store,
    clock,
    ackLink: (incidentId) => ackLinks.createAckLink(incidentId),
    publicUrl: config.publicUrl,
    resultRetentionHours: config.resultRetentionHours,
    rollUpPacing: rollUpPacingFor(database.kind),
    phone: config.twilio ? createTwilioClient(config.twilio) : null,
    phonePolicy: DEFAULT_PHONE_POLICY,
    queue: jobs.queue,
    billing: config.stripe
      ? createBillingWorker({
          store,
          clock,
          settings: config.stripe,
          publicUrl: config.publicUrl,
        })
      : null,
  });
  if (runWorkers && !stopping) {
    const connected = tokenCipher
      ? { store, clock, cipher: tokenCipher, publicUrl: config.publicUrl, log: app.log }
      : null;
    engine = createCheckEngine({
      store,
      queue: jobs.queue,
      clock,
      checkers: createCheckers({
        shopify:
          config.shopify && connected
            ? createShopifyIntegration({ ...connected, settings: config.shopify }).checker()
            : undefined,
        googleAds:
          config.googleAds && connected
            ? createGoogleAdsIntegration({ ...connected, settings: config.googleAds }).checker()
            : undefined,
        meta:
          config.meta && connected
            ? createMetaAdsIntegration({ ...connected, settings: config.meta }).checker()
            : undefined,
      }),
      log: app.log,
      concurrency: config.checkConcurrency,
      batchSize: config.checkBatchSize,
      wakeups,
    });
    engine.start();
    app.log.info(
      { concurrency: config.checkConcurrency, batchSize: config.checkBatchSize },
      'check engine started: claiming due monitors',
    );
  }
  if (serveHttp) {
    await app.listen({ port: config.port, host: config.host });
    app.log.info(`Vigil is at ${config.publicUrl}/app (API docs at ${config.publicUrl}/docs)`);
  } else {
    await app.ready();
    app.log.info('worker started: running background jobs, no HTTP');
  }
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
main(config).catch((error: unknown) => {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') {
    console.error(
      `Vigil could not start: a port is already in use (${(error as Error).message}). Stop the other program, or set PORT (and SANDBOX_SMTP_PORT).`,
    );
  } else {
    console.error('Vigil could not start:', error);
  }
  process.exit(1);
});

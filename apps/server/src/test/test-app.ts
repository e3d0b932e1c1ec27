import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, type Sandbox } from '@vigil/sandbox';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppDeps } from '../app.ts';
import type { Database } from '../db/database.ts';
import { createStore } from '../db/store.ts';
import { createWakeups } from '../db/wakeups.ts';
import { rollUpPacingFor } from '../engine/retention.ts';
import { startJobs, type Jobs } from '../jobs/job-queue.ts';
import { createAckLinks } from '../modules/alerts/ack-link.ts';
import {
  SANDBOX_GOOGLE_ADS,
  SANDBOX_META,
  SANDBOX_SHOPIFY,
  SANDBOX_STRIPE,
  SANDBOX_TWILIO,
  sandboxPrices,
} from '../config.ts';
import { createBillingWorker } from '../modules/billing/billing-worker.ts';
import { sandboxStripePrices } from '../modules/billing/sandbox-prices.ts';
import { createTokenCipher, newTokenKey, parseTokenKeys } from '../lib/token-cipher.ts';
import { DEFAULT_PHONE_POLICY, type PhonePolicy } from '../delivery/delivery.ts';
import { createEmailSender } from '../notify/email.ts';
import { createTwilioClient } from '../notify/twilio.ts';
import type { TestDatabase } from './databases.ts';
import { createTestClock, type TestClock } from './test-clock.ts';

/** Vigil's Twilio number in tests. */
export const TEST_FROM_NUMBER = '+15005550006';

export const OIDC_CLIENT = { clientId: 'vigil-test', clientSecret: 'vigil-test-secret' };

export interface TestApp {
  app: FastifyInstance;
  /** Where the app answers over real HTTP (the OpenID flow needs it): http://127.0.0.1:<port>. */
  url: string;
  sandbox: Sandbox;
  clock: TestClock;
  database: Database;
  /** A built web app stand-in: index.html and one hashed asset. */
  webDist: string;
  deps: AppDeps;
  close(): Promise<void>;
}

/**
 * The whole server as main.ts wires it, on a fresh database: real jobs (pg-boss), real SMTP (the sandbox's
 * server on a free port), the sandbox OpenID provider served by the app itself over HTTP on 127.0.0.1.
 * The HTTP server listens before the app is built, so the public URL is known when the app needs it.
 */
export async function startTestApp(
  testDatabase: TestDatabase,
  options: { phonePolicy?: PhonePolicy; trustProxy?: number } = {},
): Promise<TestApp> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const twilio = { apiUrl: `${url}/sandbox/twilio`, ...SANDBOX_TWILIO, fromNumber: TEST_FROM_NUMBER };
  const phonePolicy = options.phonePolicy ?? DEFAULT_PHONE_POLICY;
  const webDist = await mkdtemp(join(tmpdir(), 'vigil-web-'));
  await mkdir(join(webDist, 'assets'));
  await writeFile(join(webDist, 'index.html'), '<!doctype html><title>Vigil</title><div id="root"></div>');
  await writeFile(join(webDist, 'assets', 'index-abc123.js'), 'console.log("vigil")');

  const { database, drop } = await testDatabase.create();
  const store = createStore(database.db);
  const clock = createTestClock();
  const sandbox = createSandbox({
    publicUrl: url,
    smtpPort: 0,
    oidcClientId: OIDC_CLIENT.clientId,
    oidcClientSecret: OIDC_CLIENT.clientSecret,
    twilio: { ...SANDBOX_TWILIO, phoneNumber: TEST_FROM_NUMBER },
    shopify: { ...SANDBOX_SHOPIFY, now: () => clock.now().getTime(), webhookRetryDelaysMs: [50, 200] },
    google: {
      ...SANDBOX_GOOGLE_ADS,
      redirectUris: [`${url}/app/oauth`],
      now: () => clock.now().getTime(),
    },
    meta: {
      ...SANDBOX_META,
      redirectUris: [`${url}/app/oauth`],
      now: () => clock.now().getTime(),
    },
    stripe: {
      ...SANDBOX_STRIPE,
      prices: sandboxStripePrices(),
      apiPort: 0,
      webhookRetryDelaysMs: [50, 200],
      now: () => clock.now().getTime(),
    },
  });
  const { smtpPort, stripePort } = await sandbox.start();
  const wakeups = createWakeups(database);
  const jobs: Jobs = await startJobs({ database, runWorkers: true, wakeups });
  const deps: AppDeps = {
    config: {
      publicUrl: url,
      oidc: { issuer: `${url}/sandbox/oidc`, ...OIDC_CLIENT },
      webDist,
      sessionTtlDays: 30,
      trustProxy: options.trustProxy ?? 0,
      logLevel: 'silent',
      logFormat: 'json',
      twilio,
      shopify: {
        ...SANDBOX_SHOPIFY,
        scopes: ['read_products', 'read_inventory'],
        shopUrl: `${url}/sandbox/shopify/shops/{shop}`,
        apiVersion: '2025-01',
      },
      googleAds: {
        ...SANDBOX_GOOGLE_ADS,
        apiVersion: 'v21',
        apiUrl: `${url}/sandbox/google/ads`,
        authorizeUrl: `${url}/sandbox/google/o/oauth2/v2/auth`,
        tokenUrl: `${url}/sandbox/google/token`,
      },
      meta: {
        ...SANDBOX_META,
        graphVersion: 'v21.0',
        graphUrl: `${url}/sandbox/meta/graph`,
        dialogUrl: `${url}/sandbox/meta/www`,
      },
      stripe: {
        ...SANDBOX_STRIPE,
        apiUrl: `http://127.0.0.1:${stripePort}`,
        prices: sandboxPrices(),
        sandbox: true,
      },
    },
    tokenCipher: createTokenCipher(parseTokenKeys(newTokenKey('test'))),
    phonePolicy,
    database,
    wakeups,
    queue: jobs.queue,
    clock,
    sandbox: sandbox.plugin,
  };
  const app = await buildApp(deps);
  const email = createEmailSender({
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    from: 'Vigil <alerts@vigil.test>',
  });
  const ackLinks = createAckLinks({ serverSecrets: store.serverSecrets, clock, publicUrl: url });
  await jobs.run({
    email,
    log: app.log,
    store,
    clock,
    ackLink: (incidentId) => ackLinks.createAckLink(incidentId),
    publicUrl: url,
    resultRetentionHours: 48,
    rollUpPacing: rollUpPacingFor(database.kind),
    phone: createTwilioClient(twilio),
    phonePolicy,
    queue: jobs.queue,
    billing: createBillingWorker({
      store,
      clock,
      settings: deps.config.stripe!,
      publicUrl: url,
    }),
  });
  await app.ready();
  server.on('request', app.routing);

  return {
    app,
    url,
    sandbox,
    clock,
    database,
    webDist,
    deps,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
      await jobs.stop();
      email.close();
      await sandbox.stop();
      await wakeups.close();
      await drop();
      await rm(webDist, { recursive: true, force: true });
    },
  };
}

let counter = 0;

/** A unique email per call, so tests never share an account or its limits. */
export function uniqueEmail(label = 'merchant'): string {
  counter += 1;
  return `${label}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 8)}@shop.example`;
}

let addressCounter = 0;

/** A unique client address per call (limits are per address, and every inject is 127.0.0.1 otherwise). */
export function uniqueAddress(): string {
  addressCounter += 1;
  return `10.${(process.pid >> 8) & 255}.${process.pid & 255}.${addressCounter % 250}`;
}

export const PASSWORD = 'correct-horse-7';

export function authHeader(token: string): Record<string, string> {
  return { authorization: token };
}

export interface Registered {
  email: string;
  password: string;
  token: string;
  monitorKey: string;
}

export async function registerUser(app: FastifyInstance, email = uniqueEmail()): Promise<Registered> {
  const response = await app.inject({
    method: 'POST',
    url: '/oauth-bff/v1/user/register',
    payload: { email, password: PASSWORD },
    // Registrations are limited per address: each test user comes from its own.
    remoteAddress: uniqueAddress(),
  });
  if (response.statusCode !== 200)
    throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  const { data } = response.json<{ data: { token: string; monitor_key: string } }>();
  return { email, password: PASSWORD, token: data.token, monitorKey: data.monitor_key };
}

/** `inject` with a JSON body and optional session token; answers status and parsed body. */
export async function call(
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  options: { body?: unknown; token?: string; address?: string; headers?: Record<string, string> } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions read whatever the answer holds
): Promise<{ status: number; body: any; response: LightMyRequestResponse }> {
  const response = await app.inject({
    method,
    url,
    ...(options.body !== undefined ? { payload: options.body as object } : {}),
    headers: { ...(options.token ? authHeader(options.token) : {}), ...options.headers },
    ...(options.address ? { remoteAddress: options.address } : {}),
  });
  const type = String(response.headers['content-type'] ?? '');
  return {
    status: response.statusCode,
    body: type.includes('json') ? response.json() : response.body,
    response,
  };
}

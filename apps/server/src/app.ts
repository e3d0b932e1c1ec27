import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyServerOptions,
  type preHandlerAsyncHookHandler,
} from 'fastify';
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { createStore } from './db/store.ts';
import type { Wakeups } from './db/wakeups.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { answerFrameworkError, registerErrorHandling } from './lib/error-handler.ts';
import { withRedactedUrls } from './lib/log-redaction.ts';
import { createPasswordHasher, type PasswordHasher } from './lib/password-hasher.ts';
import { serializerCompiler } from './lib/response-serializer.ts';
import {
  refuseControlCharacters,
  refuseControlCharactersInUrl,
  validatorCompiler,
} from './lib/validation.ts';
import { registerSecurityHeaders, useSandboxPolicy } from './lib/security-headers.ts';
import { createAckLinks } from './modules/alerts/ack-link.ts';
import { alertRoutes } from './modules/alerts/alert.routes.ts';
import { createAlertService } from './modules/alerts/alert.service.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { contactRoutes } from './modules/contacts/contact.routes.ts';
import { createContactService } from './modules/contacts/contact.service.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { monitorRoutes } from './modules/monitors/monitor.routes.ts';
import { createMonitorService } from './modules/monitors/monitor.service.ts';
import { createOidcClient } from './modules/oidc/oidc.client.ts';
import { oidcRoutes } from './modules/oidc/oidc.routes.ts';
import { createOidcService } from './modules/oidc/oidc.service.ts';
import { planRoutes } from './modules/plans/plan.routes.ts';
import { createPlanService } from './modules/plans/plan.service.ts';
import { createRateLimiter } from './modules/rate-limits/rate-limit.service.ts';
import { registerAuthentication } from './modules/sessions/authenticate.ts';
import { createSessionCache } from './modules/sessions/session-cache.ts';
import { createSessionService } from './modules/sessions/session.service.ts';
import { userRoutes } from './modules/users/user.routes.ts';
import { createUserService } from './modules/users/user.service.ts';
import { registerWebApp } from './web-app.ts';
import { connectionRoutes } from './modules/connections/connection.routes.ts';
import { createConnectionService } from './modules/connections/connection.service.ts';
import type { TokenCipher } from './lib/token-cipher.ts';
import { createShopifyIntegration } from './services/shopify/index.ts';
import { shopifyProductRoutes } from './services/shopify/shopify-products.routes.ts';
import { shopifyWebhookRoutes } from './services/shopify/shopify-webhooks.ts';
import { createGoogleAdsIntegration } from './services/google-ads/index.ts';
import { createMetaAdsIntegration } from './services/meta-ads/index.ts';
import { DEFAULT_PHONE_POLICY, type PhonePolicy } from './delivery/delivery.ts';
import { createPhoneEventService } from './modules/twilio/phone-events.service.ts';
import { twilioWebhookRoutes } from './modules/twilio/twilio-webhook.routes.ts';
import { billingRoutes, stripeWebhookRoutes } from './modules/billing/billing.routes.ts';
import { createBillingService } from './modules/billing/billing.service.ts';
import { createStripeGateway } from './modules/billing/stripe-gateway.ts';
import { planCoverageRoutes } from './modules/billing/plan-coverage.routes.ts';
import { createPlanCoverageService } from './modules/billing/plan-coverage.service.ts';

export const BODY_LIMIT_BYTES = 64 * 1024;

export interface AppDeps {
  config: Pick<
    Config,
    | 'publicUrl'
    | 'oidc'
    | 'webDist'
    | 'sessionTtlDays'
    | 'trustProxy'
    | 'logLevel'
    | 'logFormat'
    | 'twilio'
    | 'shopify'
    | 'googleAds'
    | 'meta'
    | 'stripe'
  >;
  /** Seals connected accounts' tokens; needed when `config.shopify`, `googleAds` or `meta` is set. */
  tokenCipher?: TokenCipher;
  /** How alert calls ring and retry (tests shorten the pause). */
  phonePolicy?: PhonePolicy;
  database: Database;
  /** This process's LISTEN/NOTIFY: ended and changed sessions leave the session cache through it. */
  wakeups: Wakeups;
  queue: JobQueue;
  clock?: Clock;
  passwordHasher?: PasswordHasher;
  /** How the server reaches the OpenID provider (tests may wrap it). */
  fetch?: typeof fetch;
  /** The sandbox's Fastify plugin, registered under /sandbox (embedded mode and tests only). */
  sandbox?: FastifyPluginAsync;
  logger?: FastifyServerOptions['logger'];
}

/** Builds the whole HTTP app from its dependencies; it never listens (main.ts and tests decide that). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger: withRedactedUrls(deps.logger ?? loggerOptions(config)),
    bodyLimit: BODY_LIMIT_BYTES,
    frameworkErrors: answerFrameworkError,
    // The nth hop from the connection, as proxy-addr counts: the entry the operator's own proxy appended.
    trustProxy: config.trustProxy > 0 ? (_address: string, hop: number) => hop < config.trustProxy : false,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerJsonOnly(app);
  registerSecurityHeaders(app, config.publicUrl);

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Vigil API',
        version: '1.0.0',
        description:
          'Success answers are `{ data }`; errors are `{ code, message, details? }`. Send the session token as `Authorization: <token>` (or `Bearer <token>`).',
      },
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'header', name: 'Authorization' } },
      },
    },
    transform: (document) =>
      document.url.startsWith('/sandbox')
        ? { schema: { hide: true }, url: document.url }
        : jsonSchemaTransform(document),
  });
  // No validator badge: it is an image from validator.swagger.io, which the CSP does not allow.
  await app.register(fastifySwaggerUi, { routePrefix: '/docs', uiConfig: { validatorUrl: null } });

  const store = createStore(database.db);
  const hasher = deps.passwordHasher ?? createPasswordHasher();
  const sessionCache = await createSessionCache({ wakeups: deps.wakeups });
  app.addHook('onClose', async () => sessionCache.close());
  const sessions = createSessionService({
    sessions: store.sessions,
    clock,
    ttlDays: config.sessionTtlDays,
    cache: sessionCache,
  });
  const limiter = createRateLimiter({ rateLimits: store.rateLimits, clock });
  const authenticate = registerAuthentication(app, sessions);
  const auth = createAuthService({
    store,
    sessions,
    limiter,
    hasher,
    queue: deps.queue,
    clock,
    publicUrl: config.publicUrl,
  });
  const oidc = createOidcService({
    store,
    sessions,
    limiter,
    clock,
    client: config.oidc ? createOidcClient(config.oidc, deps.fetch) : null,
    publicUrl: config.publicUrl,
  });

  await app.register(healthRoutes, { ping: database.ping });
  await app.register(authRoutes, { auth, oidc, authenticate });
  await app.register(oidcRoutes, { oidc });
  await app.register(userRoutes, { users: createUserService({ users: store.users, clock }), authenticate });
  // Paid plans are sold only where payments are taken: Stripe, or the sandbox playing it.
  const gateway = config.stripe ? createStripeGateway(config.stripe) : null;
  await app.register(planRoutes, {
    plans: createPlanService({ store, queue: deps.queue, clock, paidPlans: gateway !== null }),
    authenticate,
  });
  await app.register(planCoverageRoutes, { coverage: createPlanCoverageService({ store }), authenticate });
  if (gateway) {
    await app.register(billingRoutes, {
      billing: createBillingService({ store, gateway, clock, publicUrl: config.publicUrl }),
      authenticate,
    });
    await app.register(stripeWebhookRoutes, { gateway, store, queue: deps.queue, clock });
  }
  const cipher = deps.tokenCipher;
  const connected = { store, clock, publicUrl: config.publicUrl, log: app.log, fetch: deps.fetch };
  const shopify =
    config.shopify && cipher
      ? createShopifyIntegration({ ...connected, settings: config.shopify, cipher })
      : null;
  const googleAds =
    config.googleAds && cipher
      ? createGoogleAdsIntegration({ ...connected, settings: config.googleAds, cipher })
      : null;
  const meta =
    config.meta && cipher ? createMetaAdsIntegration({ ...connected, settings: config.meta, cipher }) : null;
  await app.register(monitorRoutes, {
    monitors: createMonitorService({
      store,
      clock,
      limiter,
      phoneConfigured: config.twilio !== null,
      targets: {
        ...(shopify ? { shopify: shopify.service } : {}),
        ...(googleAds ? { google_ads: googleAds.service } : {}),
        ...(meta ? { facebook_ads: meta.service } : {}),
      },
    }),
    authenticate,
  });
  if (shopify || googleAds || meta) {
    const authenticateIfAny: preHandlerAsyncHookHandler = async (request) => {
      request.auth = request.headers.authorization
        ? await sessions.authenticate(request.headers.authorization).catch(() => null)
        : null;
    };
    await app.register(connectionRoutes, {
      connections: createConnectionService({
        store,
        clock,
        cipher: cipher!,
        bindings: {
          ...(shopify ? { shopify: shopify.binding } : {}),
          ...(googleAds ? { google: googleAds.binding } : {}),
          ...(meta ? { meta: meta.binding } : {}),
        },
        limiter,
        log: app.log,
      }),
      authenticate,
      authenticateIfAny,
      secureCookies: config.publicUrl.startsWith('https:'),
    });
  }
  if (shopify) {
    await app.register(shopifyProductRoutes, { shopify: shopify.service, authenticate });
    await app.register(shopifyWebhookRoutes, { client: shopify.client, webhooks: shopify.webhooks });
  }
  if (googleAds) await app.register(googleAds.routes, { authenticate });
  if (meta) await app.register(meta.routes, { authenticate });
  await app.register(contactRoutes, {
    contacts: createContactService({
      store,
      limiter,
      queue: deps.queue,
      clock,
      phoneConfigured: config.twilio !== null,
      phoneFromNumber: config.twilio?.fromNumber ?? null,
    }),
    authenticate,
  });
  const ackLinks = createAckLinks({ serverSecrets: store.serverSecrets, clock, publicUrl: config.publicUrl });
  await app.register(alertRoutes, {
    alerts: createAlertService({ store, clock, ackLinks }),
    authenticate,
    publicUrl: config.publicUrl,
  });
  if (config.twilio) {
    await app.register(twilioWebhookRoutes, {
      events: createPhoneEventService({
        store,
        clock,
        queue: deps.queue,
        log: app.log,
        publicUrl: config.publicUrl,
        policy: deps.phonePolicy ?? DEFAULT_PHONE_POLICY,
      }),
      authToken: config.twilio.authToken,
      publicUrl: config.publicUrl,
    });
  }
  const sandbox = deps.sandbox;
  if (sandbox) {
    await app.register(
      async (scope) => {
        useSandboxPolicy(scope);
        await scope.register(sandbox);
      },
      { prefix: '/sandbox' },
    );
  }
  await registerWebApp(app, config.webDist);
  return app;
}

function loggerOptions(config: Pick<Config, 'logLevel' | 'logFormat'>): FastifyServerOptions['logger'] {
  if (config.logFormat === 'json') return { level: config.logLevel };
  return {
    level: config.logLevel,
    transport: {
      target: 'pino-pretty',
      options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,reqId,req,res,responseTime' },
    },
  };
}

/**
 * JSON is the only body type at the top level (the sandbox adds form posts inside its own scope). An empty
 * JSON body counts as no body, since clients send `Content-Type: application/json` on bodiless POSTs (logout).
 * Control characters are refused here, in every JSON body and in every query string and path, rather than
 * per field; the raw-body webhooks (Stripe, Shopify) replace these parsers in their own scope.
 */
function registerJsonOnly(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    parseJson(request, body as string, (error, parsed) => {
      if (error) return done(error);
      try {
        refuseControlCharacters(parsed);
      } catch (refused) {
        return done(refused as Error);
      }
      done(null, parsed);
    });
  });
  app.addHook('preValidation', refuseControlCharactersInUrl);
}

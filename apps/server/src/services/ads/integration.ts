import type { FastifyBaseLogger, preHandlerAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Checker } from '../../checks/checker.ts';
import type { Store } from '../../db/store.ts';
import type { Clock } from '../../lib/clock.ts';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { ProviderBinding } from '../../modules/connections/provider-binding.ts';
import type { TargetPreparer } from '../../modules/monitors/target-preparer.ts';

/** What an ads service is wired from (app.ts for the API, main.ts for the engine). */
export interface AdsIntegrationDeps<Settings> {
  settings: Settings;
  store: Store;
  clock: Clock;
  cipher: TokenCipher;
  publicUrl: string;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  fetch?: typeof fetch;
}

/**
 * An ads service, wired: the binding of its provider's accounts, the target preparation of the monitor form,
 * its pickers' routes, and the engine's checker.
 */
export interface AdsIntegration {
  binding: ProviderBinding;
  service: TargetPreparer<never>;
  routes: FastifyPluginAsyncZod<{ authenticate: preHandlerAsyncHookHandler }>;
  checker(): Checker;
}

import type { BindBody, BindResult, Connection, ConnectionStatus, Provider } from '@vigil/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../../db/store.ts';
import { AppError } from '../../lib/app-error.ts';
import { addMs, type Clock, HOUR_MS, MINUTE_MS, unixSeconds } from '../../lib/clock.ts';
import { randomToken, sha256Hex } from '../../lib/secrets.ts';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { ShopifyBinding } from '../../services/shopify/shopify.binding.ts';
import type { AuthSession } from '../sessions/session.service.ts';
import { LIMITS, type RateLimiter } from '../rate-limits/rate-limit.service.ts';
import type { ConnectionRow } from './connection.repository.ts';

/** A binding's `state` is valid this long. */
export const STATE_TTL_MS = 10 * MINUTE_MS;
/** A connection installed from the provider's side waits this long for its person to finish signing up. */
export const HELD_TTL_MS = HOUR_MS;

const notFound = () => new AppError('NOT_FOUND', 'That connection does not exist.');
const monitorNotFound = () => new AppError('NOT_FOUND', 'That monitor does not exist.');
const staleState = () =>
  new AppError('INVALID', 'This connection link was already used or has expired. Connect the shop again.');
const heldGone = () =>
  new AppError(
    'INVALID',
    'This shop connection has expired or was already used. Install Vigil from Shopify again, or connect the shop from the monitor form.',
  );

/** The token's authenticated context: a sealed token only opens on its own account. */
export const tokenContext = (row: Pick<ConnectionRow, 'provider' | 'account'>) =>
  `${row.provider}:${row.account}`;

export function toConnection(row: ConnectionRow, monitors: number): Connection {
  return {
    connectionId: row.id,
    provider: row.provider as Provider,
    account: row.account,
    name: row.name,
    scopes: row.scopes,
    status: row.status as ConnectionStatus,
    statusReason: row.statusReason,
    statusChangedAt: row.statusChangedAt?.toISOString() ?? null,
    monitors,
    createdAt: row.createdAt.toISOString(),
  };
}

export interface BindOutcome {
  result: BindResult;
  /** For a held connection: the secret to keep in the installing browser's cookie. */
  browserSecret?: string;
}

/**
 * Binding outside accounts (a Shopify shop) to a person, once, for any number of monitors: the authorize URL
 * with a single-use state tied to the person, the monitor and the account; the provider's answer checked and
 * exchanged for a token kept encrypted; installs that start on the provider's side held under a key until
 * their person signs in; lost and disconnected connections.
 */
export function createConnectionService(deps: {
  store: Store;
  clock: Clock;
  cipher: TokenCipher;
  shopify: ShopifyBinding;
  limiter: RateLimiter;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
}) {
  const { store, clock, cipher, shopify, log } = deps;

  async function newState(userId: string | null, monitorId: string | null, account: string) {
    const state = randomToken();
    const now = clock.now();
    await store.connections.deleteExpiredStates(now);
    await store.connections.insertState({
      stateHash: sha256Hex(state),
      provider: shopify.provider,
      userId,
      monitorId,
      account,
      expiresAt: addMs(now, STATE_TTL_MS),
      createdAt: now,
    });
    return { state, expiresAt: addMs(now, STATE_TTL_MS) };
  }

  /** Subscribes the webhooks after a binding; a refusal is logged, never a failed binding. */
  async function subscribe(account: string, token: string) {
    try {
      const refused = await shopify.subscribe(account, token);
      if (refused.length)
        log.warn({ account, refused }, 'shopify webhooks refused; checks run on their interval');
    } catch (error) {
      log.warn({ err: error, account }, 'subscribing shopify webhooks failed; checks run on their interval');
    }
  }

  return {
    async authorizeUrl(
      session: AuthSession,
      query: { monitor_id?: string | undefined; shop?: string | undefined },
    ) {
      let typed = query.shop;
      let monitorId: string | null = null;
      if (query.monitor_id) {
        const monitor = await store.monitors.findOwned(session.userId, query.monitor_id);
        if (!monitor || monitor.service !== 'shopify') throw monitorNotFound();
        monitorId = monitor.id;
        typed ??= (monitor.target as { shop?: string }).shop;
      }
      if (!typed) throw new AppError('INVALID', 'Enter your shop’s address, like hoodies.myshopify.com.');
      await deps.limiter.consume(
        [LIMITS.connectByUser(session.userId)],
        (retryIn) => `You started connecting a shop many times in the last hour. Try again ${retryIn}.`,
      );
      const { shop } = await shopify.resolve(typed);
      const { state, expiresAt } = await newState(session.userId, monitorId, shop);
      return { url: shopify.authorizeUrl(shop, state), account: shop, expiresAt: expiresAt.toISOString() };
    },

    /** Shopify's app URL: a merchant installs Vigil from Shopify; Vigil answers with the authorize URL. */
    async installUrl(params: Record<string, string>): Promise<string> {
      const shop = shopify.verifyInstall(params, unixSeconds(clock.now()));
      const { state } = await newState(null, null, shop);
      return shopify.authorizeUrl(shop, state);
    },

    async bind(session: AuthSession | null, body: BindBody, browserSecret?: string): Promise<BindOutcome> {
      if ('key' in body) {
        if (!session) throw new AppError('UNAUTHORIZED', 'Sign in to finish connecting the shop.');
        return { result: await claim(session, body.key, browserSecret) };
      }
      const now = clock.now();
      const answer = shopify.verifyReturn(body.params, unixSeconds(now));
      const state = await store.connections.takeState(sha256Hex(answer.state), session?.userId ?? null, now);
      if (!state || state.account !== answer.account || state.provider !== shopify.provider)
        throw staleState();
      const granted = await shopify.grant(answer.account, answer.code);
      const grant = {
        provider: shopify.provider,
        account: answer.account,
        name: granted.name,
        scopes: granted.scopes,
        tokenCiphertext: cipher.seal(
          granted.token,
          tokenContext({ provider: shopify.provider, account: answer.account }),
        ),
        details: granted.details,
      };
      await subscribe(answer.account, granted.token);

      if (state.userId === null) {
        // Installed from Shopify's side: held until its person signs in and claims it from this browser.
        const key = randomToken();
        const secret = randomToken();
        const until = addMs(now, HELD_TTL_MS);
        await store.connections.insertHeld(
          grant,
          { keyHash: sha256Hex(key), browserHash: sha256Hex(secret), until },
          now,
        );
        await store.connections.deleteExpiredHeld(now);
        return {
          result: { status: 'held', key, account: answer.account, expiresAt: until.toISOString() },
          browserSecret: secret,
        };
      }
      const row = await store.transaction(async (tx) => {
        const saved = await tx.connections.upsertOwned(state.userId!, grant, now);
        if (state.monitorId)
          await tx.connections.attachMonitor(state.userId!, state.monitorId, saved.id, now);
        // Every monitor on this shop is checked again at once: a lost connection clears.
        await tx.checks.requestChecks(await tx.connections.monitorsWatching([saved.id]), now);
        return saved;
      });
      const found = await store.connections.findOwned(state.userId, row.id);
      return {
        result: {
          status: 'bound',
          connection: toConnection(row, found?.monitors ?? 0),
          monitorId: state.monitorId,
        },
      };
    },

    async list(session: AuthSession, provider?: string) {
      const rows = await store.connections.listOwned(session.userId, provider);
      return { list: rows.map(({ row, monitors }) => toConnection(row, monitors)) };
    },

    async disconnect(session: AuthSession, connectionId: string): Promise<Connection> {
      const found = await store.connections.findOwned(session.userId, connectionId);
      if (!found) throw notFound();
      const now = clock.now();
      const [row] = await store.connections.setStatus(
        [connectionId],
        'disconnected',
        `Disconnected in Vigil on ${now.toISOString().slice(0, 10)}. Reconnect to watch this shop again.`,
        now,
      );
      await store.checks.requestChecks(await store.connections.monitorsWatching([connectionId]), now);
      return toConnection(row ?? found.row, found.monitors);
    },
  };

  /** A held connection becomes the signed-in person's, once, from the browser that installed it. */
  async function claim(
    session: AuthSession,
    key: string,
    browserSecret: string | undefined,
  ): Promise<BindResult> {
    const now = clock.now();
    const row = await store.transaction(async (tx) => {
      const held = await tx.connections.lockHeld(sha256Hex(key), now);
      if (!held || !browserSecret || held.heldBrowserHash !== sha256Hex(browserSecret)) return undefined;
      await tx.connections.deleteById(held.id);
      return tx.connections.upsertOwned(
        session.userId,
        {
          provider: held.provider,
          account: held.account,
          name: held.name,
          scopes: held.scopes,
          tokenCiphertext: held.tokenCiphertext!,
          details: held.details as Record<string, unknown>,
        },
        now,
      );
    });
    if (!row) throw heldGone();
    const found = await store.connections.findOwned(session.userId, row.id);
    return { status: 'bound', connection: toConnection(row, found?.monitors ?? 0), monitorId: null };
  }
}
export type ConnectionService = ReturnType<typeof createConnectionService>;

import {
  BIND_STATE_PREFIX,
  PROVIDER_OF_SERVICE,
  type BindBody,
  type BindResult,
  type Connection,
  type ConnectedService,
  type ConnectionStatus,
  type Provider,
} from '@vigil/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Repositories, Store } from '../../db/store.ts';
import { AppError } from '../../lib/app-error.ts';
import { addMs, type Clock, HOUR_MS, MINUTE_MS, unixSeconds } from '../../lib/clock.ts';
import { randomToken, sha256Base64Url, sha256Hex } from '../../lib/secrets.ts';
import type { TokenCipher } from '../../lib/token-cipher.ts';
import type { AuthSession } from '../sessions/session.service.ts';
import { assertCanConnect } from '../billing/plan-limits.ts';
import { LIMITS, type RateLimiter } from '../rate-limits/rate-limit.service.ts';
import type { AccountGrant, ConnectionRow } from './connection.repository.ts';
import type { ProviderBinding } from './provider-binding.ts';

/** A binding's `state` is valid this long. */
export const STATE_TTL_MS = 10 * MINUTE_MS;
/** A connection installed from the provider's side waits this long for its person to finish signing up. */
export const HELD_TTL_MS = HOUR_MS;

const notFound = () => new AppError('NOT_FOUND', 'That connection does not exist.');
const monitorNotFound = () => new AppError('NOT_FOUND', 'That monitor does not exist.');
const staleState = (noun = 'account') =>
  new AppError('INVALID', `This connection link was already used or has expired. Connect the ${noun} again.`);
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
    expiresAt: row.tokenExpiresAt?.toISOString() ?? null,
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
 * Binding outside accounts (a Shopify shop, a Google account, a Facebook account) to a person, once, for any
 * number of monitors: the authorize URL with a single-use state tied to the person, the monitor and the account
 * (and PKCE's verifier where the provider takes one); the provider's answer checked and exchanged for a token
 * kept encrypted; installs that start on the provider's side held under a key until their person signs in;
 * lost and disconnected connections. Each provider's own part is its `ProviderBinding`.
 */
export function createConnectionService(deps: {
  store: Store;
  clock: Clock;
  cipher: TokenCipher;
  /** The providers this server has an app for. */
  bindings: Partial<Record<Provider, ProviderBinding>>;
  limiter: RateLimiter;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
}) {
  const { store, clock, cipher, bindings, log } = deps;

  function bindingOf(provider: Provider): ProviderBinding {
    const binding = bindings[provider];
    if (!binding) {
      throw new AppError('INVALID', `Connecting ${provider} accounts is not set up on this Vigil server.`);
    }
    return binding;
  }

  async function newState(
    binding: ProviderBinding,
    userId: string | null,
    monitorId: string | null,
    account: string | null,
  ) {
    const state = `${BIND_STATE_PREFIX}${randomToken()}`;
    const codeVerifier = binding.pkce ? randomToken(48) : null;
    const now = clock.now();
    await store.connections.deleteExpiredStates(now);
    await store.connections.insertState({
      stateHash: sha256Hex(state),
      provider: binding.provider,
      userId,
      monitorId,
      account: account ?? '',
      codeVerifier,
      expiresAt: addMs(now, STATE_TTL_MS),
      createdAt: now,
    });
    const url = binding.authorizeUrl({
      account,
      state,
      codeChallenge: codeVerifier ? sha256Base64Url(codeVerifier) : null,
    });
    return { url, expiresAt: addMs(now, STATE_TTL_MS) };
  }

  /** Webhook subscriptions and the like after a binding; a failure is logged, never a failed binding. */
  async function afterGrant(
    binding: ProviderBinding,
    granted: Parameters<NonNullable<ProviderBinding['afterGrant']>>[0],
  ) {
    try {
      await binding.afterGrant?.(granted);
    } catch (error) {
      log.warn({ err: error, provider: binding.provider, account: granted.account }, 'after binding');
    }
  }

  /** Which provider an answer to /app/oauth is from: Shopify's is signed and names its shop; others by state. */
  async function providerOf(params: Record<string, string>, now: Date): Promise<Provider> {
    if (params.hmac && params.shop) return 'shopify';
    const state = params.state ? await store.connections.findState(sha256Hex(params.state), now) : undefined;
    if (!state) throw staleState();
    return state.provider as Provider;
  }

  return {
    async authorizeUrl(
      session: AuthSession,
      query: { monitor_id?: string | undefined; service?: ConnectedService; shop?: string | undefined },
    ) {
      let service: ConnectedService = query.service ?? 'shopify';
      let typed = query.shop;
      let monitorId: string | null = null;
      if (query.monitor_id) {
        const monitor = await store.monitors.findOwned(session.userId, query.monitor_id);
        if (!monitor || !(monitor.service in PROVIDER_OF_SERVICE)) throw monitorNotFound();
        service = monitor.service as ConnectedService;
        monitorId = monitor.id;
        typed ??= (monitor.target as { shop?: string }).shop;
      }
      const binding = bindingOf(PROVIDER_OF_SERVICE[service]);
      await deps.limiter.consume(
        [LIMITS.connectByUser(session.userId)],
        (retryIn) =>
          `You started connecting a ${binding.noun} many times in the last hour. Try again ${retryIn}.`,
      );
      const account = binding.resolve ? await binding.resolve(typed) : null;
      const { url, expiresAt } = await newState(binding, session.userId, monitorId, account);
      return { url, provider: binding.provider, account, expiresAt: expiresAt.toISOString() };
    },

    /** Shopify's app URL: a merchant installs Vigil from Shopify; Vigil answers with the authorize URL. */
    async installUrl(params: Record<string, string>): Promise<string> {
      const binding = bindingOf('shopify');
      const shop = binding.verifyInstall!(params, unixSeconds(clock.now()));
      const { url } = await newState(binding, null, null, shop);
      return url;
    },

    async bind(session: AuthSession | null, body: BindBody, browserSecret?: string): Promise<BindOutcome> {
      if ('key' in body) {
        if (!session) throw new AppError('UNAUTHORIZED', 'Sign in to finish connecting the shop.');
        return { result: await claim(session, body.key, browserSecret) };
      }
      const now = clock.now();
      const binding = bindingOf(await providerOf(body.params, now));
      const answer = binding.verifyReturn(body.params, unixSeconds(now));
      const state = await store.connections.takeState(sha256Hex(answer.state), session?.userId ?? null, now);
      if (
        !state ||
        state.provider !== binding.provider ||
        (answer.account !== null && state.account !== answer.account)
      ) {
        throw staleState(binding.noun);
      }
      const known = answer.account ?? (state.account || null);
      const binder = state.userId !== null ? await store.users.findById(state.userId) : undefined;
      if (binder && known !== null) {
        // Refused before the code is exchanged too, so a shop beyond the plan is not subscribed to webhooks.
        await assertCanConnect(store, binder, now, { provider: binding.provider, account: known });
      }
      const granted = await binding.grant({
        account: answer.account ?? (state.account || null),
        code: answer.code,
        codeVerifier: state.codeVerifier,
      });
      const grant: AccountGrant = {
        provider: binding.provider,
        account: granted.account,
        name: granted.name,
        scopes: granted.scopes,
        tokenCiphertext: cipher.seal(
          granted.token,
          tokenContext({ provider: binding.provider, account: granted.account }),
        ),
        details: granted.details,
        tokenExpiresAt: granted.expiresAt,
      };
      await afterGrant(binding, granted);

      if (state.userId === null) {
        // Installed from the provider's side: held until its person signs in and claims it from this browser.
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
          result: { status: 'held', key, account: granted.account, expiresAt: until.toISOString() },
          browserSecret: secret,
        };
      }
      const row = await store.transaction(async (tx) => {
        await canConnect(tx, state.userId!, grant, now);
        const saved = await tx.connections.upsertOwned(state.userId!, grant, now);
        if (state.monitorId)
          await tx.connections.attachMonitor(state.userId!, state.monitorId, saved.id, now);
        // Every monitor on this account is checked again at once: a lost connection clears.
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
        `Disconnected in Vigil on ${now.toISOString().slice(0, 10)}. Reconnect to watch it again.`,
        now,
      );
      await store.checks.requestChecks(await store.connections.monitorsWatching([connectionId]), now);
      return toConnection(row ?? found.row, found.monitors);
    },
  };

  /**
   * A new account must fit the plan in force (an account the person has already passes). Called in the
   * transaction that binds: the person's row is locked first, so two bindings cannot both take the last place.
   */
  async function canConnect(
    tx: Repositories,
    userId: string,
    account: { provider: string; account: string },
    now: Date,
  ): Promise<void> {
    const user = await tx.planLimits.lockUser(userId);
    if (!user) throw new AppError('UNAUTHORIZED', 'Your session has ended. Sign in again.');
    await assertCanConnect(tx, user, now, account);
  }

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
      await canConnect(tx, session.userId, held, now);
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
          tokenExpiresAt: held.tokenExpiresAt,
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

import pg from 'pg';
import type { Database } from './database.ts';

/** Monitors created, resumed or moved sooner (a trigger, migration 0010_monitor_wakeups). */
export const MONITORS_CHANNEL = 'vigil_monitors';
/** A job was sent; the payload says which queue and when it may start (jobs/job-queue.ts). */
export const JOBS_CHANNEL = 'vigil_jobs';
/**
 * A session was deleted or changed (triggers, migration 0013_session_notify): the payload is its token hash,
 * `user:<id>` for all of a user's sessions, or `*` for every session (modules/sessions/session-cache.ts).
 */
export const SESSIONS_CHANNEL = 'vigil_sessions';

/**
 * Called with each payload sent on the channel, from any process. Called with `null` when notifications may
 * have been missed (the listening connection was lost and is back): the listener should look for itself.
 */
export type WakeupHandler = (payload: string | null) => void;

export interface ListenOptions {
  /**
   * Called at once when notifications stop arriving (the listening connection was lost, or `close`), before the
   * handler's `null` when they arrive again: for a listener that must not act on what it heard before meanwhile.
   */
  onLost?: () => void;
}

/**
 * The LISTEN side of PostgreSQL's LISTEN/NOTIFY between the processes sharing one database, so that waiting work
 * is woken instead of polled for (senders NOTIFY with `pg_notify` on their own connections). A wakeup is a hint:
 * a process that misses one finds the work at its next safety poll.
 */
export interface Wakeups {
  /** Resolves once the channel is listened to (or, when the database is unreachable, once reconnecting). */
  listen(channel: string, handler: WakeupHandler, options?: ListenOptions): Promise<() => void>;
  /** Whether notifications on the channel reach this process now. */
  isListening(channel: string): boolean;
  close(): Promise<void>;
}

/** How soon a lost listening connection is opened again (PostgreSQL restarting). */
const RECONNECT_MS = 500;

export function createWakeups(database: Database): Wakeups {
  return database.kind === 'pglite' ? pgliteWakeups(database.pglite) : postgresWakeups(database);
}

/** PGlite runs in this process: its LISTEN shares the one connection, and notifications arrive after the query. */
function pgliteWakeups(pglite: Extract<Database, { kind: 'pglite' }>['pglite']): Wakeups {
  const listeners = new Set<{ channel: string; onLost?: () => void; stop: () => Promise<void> }>();
  return {
    async listen(channel, handler, options) {
      const unlisten = await pglite.listen(channel, (payload) => handler(payload));
      const listener = {
        channel,
        onLost: options?.onLost,
        async stop() {
          listeners.delete(listener);
          if (!pglite.closed) await unlisten();
        },
      };
      listeners.add(listener);
      return () => void listener.stop().catch(() => undefined);
    },
    isListening: (channel) =>
      !pglite.closed && [...listeners].some((listener) => listener.channel === channel),
    async close() {
      const all = [...listeners];
      for (const listener of all) listener.onLost?.();
      await Promise.allSettled(all.map((listener) => listener.stop()));
    },
  };
}

/**
 * One connection of its own per process holds the LISTENs (a pooled connection would be handed to queries and
 * closed when idle). When it is lost every `onLost` is called at once, it is opened again every RECONNECT_MS,
 * and every handler is called with `null` once it is back.
 */
function postgresWakeups(database: Extract<Database, { kind: 'postgres' }>): Wakeups {
  const handlers = new Map<string, Set<WakeupHandler>>();
  const lostCallbacks = new Set<() => void>();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;
  /** The channels the current connection was asked to listen to, and those whose LISTEN is done. */
  let listening = new Set<string>();
  let confirmed = new Set<string>();

  function lost(): void {
    confirmed = new Set();
    for (const onLost of lostCallbacks) onLost();
  }

  const quoted = (channel: string) => {
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
    return channel;
  };

  async function connect(): Promise<void> {
    const next = new pg.Client({
      connectionString: database.connectionString,
      application_name: 'vigil-wakeups',
      keepAlive: true,
    });
    // The loss is handled on 'end'; an unhandled 'error' would crash the process.
    next.on('error', () => undefined);
    next.on('notification', (message) => {
      for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    next.on('end', () => {
      if (client !== next) return;
      client = undefined;
      lost();
      reconnectLater();
    });
    try {
      await next.connect();
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    listening = new Set();
    confirmed = new Set();
    await listenAll();
  }

  /** LISTENs on the current connection to every channel that has handlers; a failure is a lost connection. */
  async function listenAll(): Promise<void> {
    const current = client;
    if (!current) return;
    for (const channel of handlers.keys()) {
      if (listening.has(channel)) continue;
      listening.add(channel);
      await current.query(`listen ${quoted(channel)}`).then(
        () => client === current && confirmed.add(channel),
        () => listening.delete(channel),
      );
    }
  }

  function reconnectLater(): void {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connecting ??= connect()
        .then(() => {
          for (const set of handlers.values()) for (const handler of set) handler(null);
        })
        .catch(() => reconnectLater())
        .finally(() => (connecting = undefined));
    }, RECONNECT_MS).unref();
  }

  return {
    async listen(channel, handler, options) {
      quoted(channel);
      const set = handlers.get(channel) ?? new Set();
      handlers.set(channel, set);
      set.add(handler);
      const onLost = options?.onLost;
      if (onLost) lostCallbacks.add(onLost);
      if (!client && !retry) {
        connecting ??= connect()
          .catch(() => reconnectLater())
          .finally(() => (connecting = undefined));
      }
      await connecting;
      await listenAll();
      return () => {
        handlers.get(channel)?.delete(handler);
        if (onLost) lostCallbacks.delete(onLost);
      };
    },
    isListening: (channel) => confirmed.has(channel),
    async close() {
      closed = true;
      lost();
      clearTimeout(retry);
      await connecting?.catch(() => undefined);
      const last = client;
      client = undefined;
      await last?.end().catch(() => undefined);
    },
  };
}

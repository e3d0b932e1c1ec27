import { createHmac } from 'node:crypto';
import type { MetaSettings } from '../../config.ts';

const REQUEST_TIMEOUT_MS = 15_000;
/** Graph takes at most this many calls in one batch request. */
export const MAX_BATCH_ITEMS = 50;
/** Above this share of a budget (app-wide or an ad account's), the optional reads (insights) are skipped. */
export const SLOW_DOWN_PERCENT = 75;
/** A rate limit that names no time to regain access is waited out this long. */
const DEFAULT_BACKOFF_MS = 60_000;

export type MetaErrorKind = 'auth' | 'rate' | 'refused' | 'unavailable';

/** Graph answered with an error, or could not be reached. */
export class MetaError extends Error {
  constructor(
    message: string,
    readonly kind: MetaErrorKind,
    readonly details: {
      /** HTTP status; 0 when Graph was not reached. */
      status?: number;
      code?: number;
      subcode?: number;
      fbtraceId?: string;
      /** For `rate`: when calls may start again (epoch ms). */
      retryAt?: number;
    } = {},
  ) {
    super(message);
    this.name = 'MetaError';
  }
}

/** Graph's error body: `{ error: { message, type, code, error_subcode, fbtrace_id, … } }`. */
export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  fbtrace_id?: string;
  error_user_msg?: string;
}

const RATE_CODES = new Set([4, 17, 32, 613]);
const AUTH_CODES = new Set([190, 102]);
const REFUSED_CODES = new Set([100, 200, 10]);

/** What Graph's error code means for Vigil: its documented codes, by family. */
export function kindOf(code: number | undefined, status: number): MetaErrorKind {
  if (code !== undefined) {
    if (AUTH_CODES.has(code)) return 'auth';
    if (RATE_CODES.has(code) || (code >= 80000 && code <= 80014)) return 'rate';
    if (REFUSED_CODES.has(code) || (code >= 200 && code <= 299)) return 'refused';
    if (code === 1 || code === 2) return 'unavailable';
  }
  if (status >= 500 || status === 0) return 'unavailable';
  if (status === 401) return 'auth';
  if (status === 429) return 'rate';
  return 'refused';
}

/** Words for the person, from Graph's error (its own words stay in the log through `details`). */
function sentenceOf(kind: MetaErrorKind, error: GraphErrorBody | undefined, status: number): string {
  const said = error?.message ? ` (${error.message})` : '';
  if (kind === 'auth') return `Meta no longer accepts Vigil's access to this Facebook account${said}.`;
  if (kind === 'rate') return `Meta asked Vigil to slow down${said}.`;
  if (kind === 'unavailable') return `Meta did not answer (HTTP ${status})${said}.`;
  return `Meta refused the request${said}.`;
}

/** The typed error of one Graph answer; `retryAt` comes from the usage headers read alongside it. */
export function metaErrorOf(status: number, body: unknown, retryAt?: number): MetaError {
  const error = (body as { error?: GraphErrorBody } | null)?.error;
  const kind = kindOf(error?.code, status);
  return new MetaError(sentenceOf(kind, error, status), kind, {
    status,
    ...(error?.code === undefined ? {} : { code: error.code }),
    ...(error?.error_subcode === undefined ? {} : { subcode: error.error_subcode }),
    ...(error?.fbtrace_id === undefined ? {} : { fbtraceId: error.fbtrace_id }),
    ...(kind === 'rate' && retryAt !== undefined ? { retryAt } : {}),
  });
}

// ---------------------------------------------------------------------------------------------------------
// Usage headers
// ---------------------------------------------------------------------------------------------------------

export interface Usage {
  /** X-App-Usage: the highest of call_count, total_cputime and total_time, in percent; null when absent. */
  appPercent: number | null;
  /**
   * X-Business-Use-Case-Usage and X-Ad-Account-Usage of the account called: the highest share used, in
   * percent; null when absent.
   */
  accountPercent: number | null;
  /** `estimated_time_to_regain_access` (minutes) of the ads_management (and any other) use case. */
  regainMinutes: number;
  /** The same for `ads_insights`: only the insights reads wait for it. */
  insightsRegainMinutes: number;
}

const numberOf = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

function parseJson(text: string | null | undefined): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Reads Graph's usage headers (any letter case): X-App-Usage, X-Business-Use-Case-Usage, X-Ad-Account-Usage. */
export function parseUsage(header: (name: string) => string | null | undefined): Usage {
  const usage: Usage = { appPercent: null, accountPercent: null, regainMinutes: 0, insightsRegainMinutes: 0 };
  const app = parseJson(header('x-app-usage')) as Record<string, unknown> | null;
  if (app && typeof app === 'object') {
    usage.appPercent = Math.max(
      numberOf(app.call_count),
      numberOf(app.total_cputime),
      numberOf(app.total_time),
    );
  }
  const business = parseJson(header('x-business-use-case-usage'));
  if (business && typeof business === 'object') {
    for (const entries of Object.values(business as Record<string, unknown>)) {
      if (!Array.isArray(entries)) continue;
      for (const entry of entries as Record<string, unknown>[]) {
        const percent = Math.max(
          numberOf(entry.call_count),
          numberOf(entry.total_cputime),
          numberOf(entry.total_time),
        );
        usage.accountPercent = Math.max(usage.accountPercent ?? 0, percent);
        const regain = numberOf(entry.estimated_time_to_regain_access);
        if (entry.type === 'ads_insights')
          usage.insightsRegainMinutes = Math.max(usage.insightsRegainMinutes, regain);
        else usage.regainMinutes = Math.max(usage.regainMinutes, regain);
      }
    }
  }
  const adAccount = parseJson(header('x-ad-account-usage')) as Record<string, unknown> | null;
  if (adAccount && typeof adAccount === 'object') {
    usage.accountPercent = Math.max(usage.accountPercent ?? 0, numberOf(adAccount.acc_id_util_pct));
  }
  return usage;
}

/** Where Vigil stands with Meta's limits for one ad account (or the app, account null). */
export interface Standing {
  /** Calls wait until then (epoch ms); 0 when they may go. */
  blockedUntil: number;
  /** Insights reads (their own budget, `ads_insights`) wait until then; 0 when they may go. */
  insightsBlockedUntil: number;
  /** The highest share of a budget last reported, in percent. */
  percent: number;
}

interface AccountStanding {
  blockedUntil: number;
  insightsBlockedUntil: number;
  percent: number;
  at: number;
}

/** Rate-limit codes of the app's or the person's budget: they stop every call, whatever the account. */
const APP_WIDE_CODES = new Set([4, 17, 32]);
/** The ads_insights budget of an account: only its insights wait. */
const INSIGHTS_CODE = 80000;

/**
 * Meta's limits as its answers report them, app-wide and per ad account: above SLOW_DOWN_PERCENT the optional
 * reads are skipped; after a rate-limit error nothing is sent to that account (or, for the app's and the
 * person's limits, to Meta at all) until the time Meta named to regain access.
 */
export function createUsageTracker(now: () => number) {
  const app = { blockedUntil: 0, percent: 0, at: 0 };
  const accounts = new Map<string, AccountStanding>();
  /** A share reported this long ago no longer says anything: budgets roll over an hour. */
  const STALE_MS = 10 * 60_000;

  const fresh = (entry: { percent: number; at: number }) => (now() - entry.at < STALE_MS ? entry.percent : 0);
  const entryOf = (accountId: string) => {
    let entry = accounts.get(accountId);
    if (!entry) {
      entry = { blockedUntil: 0, insightsBlockedUntil: 0, percent: 0, at: now() };
      accounts.set(accountId, entry);
    }
    return entry;
  };

  return {
    record(accountId: string | null, usage: Usage): void {
      const at = now();
      if (usage.appPercent !== null) Object.assign(app, { percent: usage.appPercent, at });
      if (!accountId || usage.accountPercent === null) return;
      const entry = entryOf(accountId);
      entry.percent = usage.accountPercent;
      entry.at = at;
      if (usage.regainMinutes > 0)
        entry.blockedUntil = Math.max(entry.blockedUntil, at + usage.regainMinutes * 60_000);
      if (usage.insightsRegainMinutes > 0)
        entry.insightsBlockedUntil = Math.max(
          entry.insightsBlockedUntil,
          at + usage.insightsRegainMinutes * 60_000,
        );
    },

    /** A rate-limit error: answers until when the calls it stops wait. */
    refused(accountId: string | null, error: MetaError): number {
      const until = Math.max(error.details.retryAt ?? 0, now() + DEFAULT_BACKOFF_MS);
      const code = error.details.code ?? 0;
      if (APP_WIDE_CODES.has(code) || !accountId) {
        app.blockedUntil = Math.max(app.blockedUntil, until);
        return app.blockedUntil;
      }
      const entry = entryOf(accountId);
      entry.percent = Math.max(entry.percent, 100);
      if (code === INSIGHTS_CODE) {
        entry.insightsBlockedUntil = Math.max(entry.insightsBlockedUntil, until);
        return entry.insightsBlockedUntil;
      }
      entry.blockedUntil = Math.max(entry.blockedUntil, until);
      return entry.blockedUntil;
    },

    standing(accountId: string | null): Standing {
      const at = now();
      const entry = accountId ? accounts.get(accountId) : undefined;
      const blockedUntil = Math.max(app.blockedUntil, entry?.blockedUntil ?? 0);
      const insightsBlockedUntil = Math.max(blockedUntil, entry?.insightsBlockedUntil ?? 0);
      return {
        blockedUntil: blockedUntil > at ? blockedUntil : 0,
        insightsBlockedUntil: insightsBlockedUntil > at ? insightsBlockedUntil : 0,
        percent: Math.max(fresh(app), entry ? fresh(entry) : 0),
      };
    },

    /** Drops what is known of accounts not heard of for a while. */
    forgetIdle(): void {
      const at = now();
      for (const [id, entry] of accounts)
        if (at - entry.at > STALE_MS && Math.max(entry.blockedUntil, entry.insightsBlockedUntil) < at)
          accounts.delete(id);
    },
  };
}
export type UsageTracker = ReturnType<typeof createUsageTracker>;

// ---------------------------------------------------------------------------------------------------------
// The client
// ---------------------------------------------------------------------------------------------------------

/** appsecret_proof: hex HMAC-SHA256 of the access token, keyed with the app secret. */
export function appsecretProof(token: string, appSecret: string): string {
  return createHmac('sha256', appSecret).update(token).digest('hex');
}

export interface GraphPage<T> {
  data: T[];
  /** The cursors of Graph's `paging`; `after` is null on the last page. */
  after: string | null;
  before: string | null;
}

/** One call of a batch: a relative URL (no version) with its query, and the ad account it is about. */
export interface BatchCall {
  path: string;
  params?: Record<string, string | number | undefined>;
}

export type BatchAnswer = { ok: true; body: unknown } | { ok: false; error: MetaError };

export interface GraphCallOptions {
  /** The ad account (digits) the call is about: its usage is tracked and its back-off obeyed. */
  account?: string | null;
  signal?: AbortSignal;
}

export interface MetaClient {
  readonly settings: MetaSettings;
  /** Graph calls made (a batch counts each of its items) and HTTP requests sent, for benchmarks. */
  stats(): { calls: number; httpRequests: number };
  readonly usage: UsageTracker;
  /** Facebook Login's dialog, asking for `ads_read`. */
  authorizeUrl(state: string, redirectUri: string): string;
  /** The code for a short-lived user token. */
  exchangeCode(code: string, redirectUri: string): Promise<{ token: string; expiresIn: number | null }>;
  /** A short-lived token for a long-lived one (about 60 days): `grant_type=fb_exchange_token`. */
  exchangeLongLived(token: string): Promise<{ token: string; expiresIn: number | null }>;
  get<T>(
    path: string,
    token: string,
    params?: Record<string, string | number | undefined>,
    options?: GraphCallOptions,
  ): Promise<T>;
  page<T>(
    path: string,
    token: string,
    params?: Record<string, string | number | undefined>,
    options?: GraphCallOptions,
  ): Promise<GraphPage<T>>;
  /**
   * Up to 50 calls in one HTTP request (`POST /` with `batch`); each answers on its own. A failure of the whole
   * request (network, a refused token, a rate limit) throws.
   */
  batch(token: string, calls: BatchCall[], options?: GraphCallOptions): Promise<BatchAnswer[]>;
}

const query = (params: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(params)
      .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
      .map(([key, value]): [string, string] => [key, String(value)]),
  ).toString();

function pageOf<T>(body: unknown): GraphPage<T> {
  const value = body as {
    data?: T[];
    paging?: { cursors?: { before?: string; after?: string }; next?: string };
  };
  return {
    data: Array.isArray(value?.data) ? value.data : [],
    // Graph names an `after` cursor on the last page too; only `next` says there is more.
    after: value?.paging?.next ? (value.paging.cursors?.after ?? null) : null,
    before: value?.paging?.cursors?.before ?? null,
  };
}
export { pageOf as graphPageOf };

/**
 * Vigil's Meta adapter: Facebook Login's manual flow (code → short-lived → long-lived token) and the Graph /
 * Marketing API with `appsecret_proof` on every call, cursor paging and batch requests. It reads the usage
 * headers of every answer and obeys them: an account (or the app) over its limit is not called again before
 * the time Meta named. The same code talks to Meta and to the sandbox; only the URLs differ.
 */
export function createMetaClient(
  settings: MetaSettings,
  options: { fetch?: typeof fetch; now?: () => number } = {},
): MetaClient {
  const fetchImpl = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const usage = createUsageTracker(now);
  const counts = { calls: 0, httpRequests: 0 };
  const graphBase = `${settings.graphUrl.replace(/\/+$/, '')}/${settings.graphVersion}`;

  async function send(url: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    counts.httpRequests += 1;
    try {
      return await fetchImpl(url, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message;
      throw new MetaError(`Meta could not be reached: ${reason}.`, 'unavailable', { status: 0 });
    }
  }

  /** Reads an answer's usage headers into the tracker; answers the usage read. */
  function track(account: string | null, header: (name: string) => string | null | undefined): Usage {
    const read = parseUsage(header);
    usage.record(account, read);
    return read;
  }

  /** Refuses to call an account (or Meta at all) during a back-off: no request leaves. */
  function assertMayCall(account: string | null): void {
    const { blockedUntil } = usage.standing(account);
    if (blockedUntil) {
      throw new MetaError('Meta’s rate limit for this ad account is still in force.', 'rate', {
        retryAt: blockedUntil,
      });
    }
  }

  function failed(status: number, body: unknown, account: string | null, read: Usage): MetaError {
    const code = (body as { error?: GraphErrorBody } | null)?.error?.code;
    const minutes = code === INSIGHTS_CODE ? read.insightsRegainMinutes : read.regainMinutes;
    const error = metaErrorOf(status, body, minutes > 0 ? now() + minutes * 60_000 : undefined);
    if (error.kind === 'rate') {
      const until = usage.refused(account, error);
      return new MetaError(error.message, 'rate', { ...error.details, retryAt: until });
    }
    return error;
  }

  async function answer(response: Response, account: string | null): Promise<unknown> {
    const read = track(account, (name) => response.headers.get(name));
    const body = (await response.json().catch(() => null)) as unknown;
    if (!response.ok || (body as { error?: unknown } | null)?.error) {
      throw failed(response.status, body, account, read);
    }
    return body;
  }

  async function oauth(params: Record<string, string>): Promise<{ token: string; expiresIn: number | null }> {
    counts.calls += 1;
    const response = await send(
      `${graphBase}/oauth/access_token?${query({
        client_id: settings.appId,
        client_secret: settings.appSecret,
        ...params,
      })}`,
      { headers: { accept: 'application/json' } },
    );
    const body = (await answer(response, null)) as { access_token?: string; expires_in?: number };
    if (!body.access_token) throw new MetaError('Meta answered the code with no token.', 'refused');
    return {
      token: body.access_token,
      expiresIn: typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : null,
    };
  }

  const signed = (token: string) => ({
    access_token: token,
    appsecret_proof: appsecretProof(token, settings.appSecret),
  });

  async function get<T>(
    path: string,
    token: string,
    params: Record<string, string | number | undefined> = {},
    callOptions: GraphCallOptions = {},
  ): Promise<T> {
    const account = callOptions.account ?? null;
    assertMayCall(account);
    counts.calls += 1;
    const response = await send(
      `${graphBase}/${path.replace(/^\/+/, '')}?${query({ ...params, ...signed(token) })}`,
      { headers: { accept: 'application/json' } },
      callOptions.signal,
    );
    return (await answer(response, account)) as T;
  }

  return {
    settings,
    usage,
    stats: () => ({ ...counts }),

    authorizeUrl(state, redirectUri) {
      const params = query({
        client_id: settings.appId,
        redirect_uri: redirectUri,
        state,
        scope: 'ads_read',
        response_type: 'code',
      });
      return `${settings.dialogUrl.replace(/\/+$/, '')}/${settings.graphVersion}/dialog/oauth?${params}`;
    },

    exchangeCode: (code, redirectUri) => oauth({ redirect_uri: redirectUri, code }),

    exchangeLongLived: (token) => oauth({ grant_type: 'fb_exchange_token', fb_exchange_token: token }),

    get,

    async page<T>(
      path: string,
      token: string,
      params: Record<string, string | number | undefined> = {},
      callOptions: GraphCallOptions = {},
    ) {
      return pageOf<T>(await get(path, token, params, callOptions));
    },

    async batch(token, calls, callOptions = {}) {
      if (calls.length === 0) return [];
      if (calls.length > MAX_BATCH_ITEMS) {
        throw new Error(`A Graph batch holds at most ${MAX_BATCH_ITEMS} calls (${calls.length} given)`);
      }
      const account = callOptions.account ?? null;
      assertMayCall(account);
      counts.calls += calls.length;
      const batch = calls.map((call) => {
        const params = call.params ? query(call.params) : '';
        return {
          method: 'GET',
          relative_url: `${call.path.replace(/^\/+/, '')}${params ? `?${params}` : ''}`,
        };
      });
      const response = await send(
        `${graphBase}/`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: query({ ...signed(token), batch: JSON.stringify(batch), include_headers: 'true' }),
        },
        callOptions.signal,
      );
      const body = await answer(response, account);
      if (!Array.isArray(body)) throw new MetaError('Meta answered the batch with no list.', 'unavailable');
      return calls.map((_, i): BatchAnswer => {
        const item = body[i] as {
          code?: number;
          headers?: { name: string; value: string }[];
          body?: string;
        } | null;
        // Graph answers null for a call it did not finish in time.
        if (!item) {
          return { ok: false, error: new MetaError('Meta did not finish this read in time.', 'unavailable') };
        }
        const headers = new Map((item.headers ?? []).map((h) => [h.name.toLowerCase(), h.value]));
        const read = track(account, (name) => headers.get(name));
        const parsed = parseJson(item.body);
        const status = item.code ?? 0;
        if (status < 200 || status >= 300 || (parsed as { error?: unknown } | null)?.error) {
          return { ok: false, error: failed(status, parsed, account, read) };
        }
        return { ok: true, body: parsed };
      });
    },
  };
}

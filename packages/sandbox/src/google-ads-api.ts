import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { localClock, type AdsCustomer, type AdsUser } from './google-catalogue.ts';
import { GaqlError, parseGaql, runGaql } from './google-gaql.ts';
import { ADWORDS_SCOPE, type GoogleOAuth } from './google-oauth.ts';

/**
 * The Google Ads REST API (`googleads.googleapis.com/{version}`) as the stand-in answers it: the checks Google
 * makes on every request (access token and its scope, developer token, quota, who reaches which customer),
 * `customers:listAccessibleCustomers`, `googleAds:search` with opaque page tokens and `googleAds:searchStream`,
 * Google's error body with a GoogleAdsFailure, the developer token's daily operations, and usage counters.
 */
export class GoogleAdsError extends Error {
  override readonly name = 'GoogleAdsError';
  constructor(
    readonly status: number,
    /** One GoogleAdsError's `errorCode`, e.g. `{ queryError: 'UNRECOGNIZED_FIELD' }`; empty for Google's front-end errors. */
    readonly errorCode: Record<string, string>,
    message: string,
    /** `{ quotaErrorDetails }` on a quota error; `{ reason }` or `{ fieldViolations }` on front-end errors. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** The request headers the Google Ads API reads. */
export interface AdsCall {
  version: string;
  authorization?: string;
  developerToken?: string;
  loginCustomerId?: string;
}

export interface UsageCounter {
  /** Requests that reached the API. */
  requests: number;
  /** Operations charged to the developer token (successful requests and pages). */
  operations: number;
  /** Requests answered with an error. */
  errors: number;
}

export interface GoogleUsage {
  total: UsageCounter;
  /** By the customer id in the path. */
  byCustomer: Record<string, UsageCounter>;
  /** By the email of the access token's user. */
  byUser: Record<string, UsageCounter>;
  /** listAccessibleCustomers, search, searchStream. */
  byEndpoint: Record<string, UsageCounter>;
}

export interface GoogleQuotaView {
  dailyOperations: number;
  remainingOperations: number;
  /** Midnight Pacific time, when Google restarts the daily count. */
  resetsAt: string;
  /** While set, every request answers RESOURCE_TEMPORARILY_EXHAUSTED. */
  exhaustedUntil: string | null;
}

/** What the API reads from the sandbox's state. */
export interface AdsApiHost {
  oauth: GoogleOAuth;
  developerToken: string;
  pageSize: number;
  dailyOperations: number;
  now: () => number;
  customer: (id: string) => AdsCustomer | undefined;
  user: (email: string) => AdsUser | undefined;
}

const GRPC_STATUS: Record<number, [string, string]> = {
  400: ['INVALID_ARGUMENT', 'Request contains an invalid argument.'],
  401: [
    'UNAUTHENTICATED',
    'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
  ],
  403: ['PERMISSION_DENIED', 'The caller does not have permission'],
  404: ['NOT_FOUND', 'Requested entity was not found.'],
  429: ['RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).'],
  500: ['INTERNAL', 'Internal error encountered.'],
};
const SEARCH_KEYS = ['query', 'pageToken', 'validateOnly', 'returnTotalResultsCount', 'summaryRowSetting'];
const PERMISSION_DENIED =
  "User doesn't have permission to access customer. Note: If you're accessing a client customer, the manager's customer id must be set in the 'login-customer-id' header. See https://developers.google.com/google-ads/api/docs/concepts/call-structure#cid";

const newCounter = (): UsageCounter => ({ requests: 0, operations: 0, errors: 0 });
const newUsage = (): GoogleUsage => ({ total: newCounter(), byCustomer: {}, byUser: {}, byEndpoint: {} });

export class GoogleAdsApi {
  readonly #host: AdsApiHost;
  #quota = { remaining: 0, day: 0, exhaustedUntil: 0 };
  #usage = newUsage();

  constructor(host: AdsApiHost) {
    this.#host = host;
    this.reset();
  }

  reset(): void {
    this.#quota = { remaining: this.#host.dailyOperations, day: this.#quotaDay(), exhaustedUntil: 0 };
    this.#usage = newUsage();
  }

  /** GET customers:listAccessibleCustomers: the customers the user was invited to directly. */
  listAccessibleCustomers(call: AdsCall): { resourceNames: string[] } {
    return this.#call(call, 'listAccessibleCustomers', null, (_customer, user) => ({
      resourceNames: user.customerIds.map((id) => `customers/${id}`),
    }));
  }

  /** POST customers/{id}/googleAds:search: one page of the query's rows; each page is one operation. */
  search(call: AdsCall, customerId: string, body: unknown): Record<string, unknown> {
    return this.#call(call, 'search', customerId, (customer) => {
      const request = searchRequest(body, SEARCH_KEYS);
      const { rows, fieldMask } = this.#run(customer, request.query);
      // A page token is good for the same query on the same customer only.
      const check = createHash('sha256')
        .update(`${customer.id}\n${request.query}`)
        .digest('base64url')
        .slice(0, 16);
      let offset = 0;
      if (request.pageToken !== undefined) {
        const [hash, at] = Buffer.from(request.pageToken, 'base64url').toString('utf8').split(':');
        offset = Number(at);
        if (hash !== check || !Number.isInteger(offset) || offset < 0 || offset > rows.length)
          throw new GoogleAdsError(400, { requestError: 'INVALID_PAGE_TOKEN' }, 'Page token is invalid.');
      }
      const size = this.#host.pageSize;
      const page = rows.slice(offset, offset + size);
      return {
        // Proto3 JSON leaves out an empty repeated field: no rows, no `results`.
        ...(page.length ? { results: page } : {}),
        ...(offset + size < rows.length
          ? { nextPageToken: Buffer.from(`${check}:${offset + size}`).toString('base64url') }
          : {}),
        ...(request.returnTotalResultsCount ? { totalResultsCount: String(rows.length) } : {}),
        fieldMask,
        queryResourceConsumption: String(100 + rows.length),
      };
    });
  }

  /** POST customers/{id}/googleAds:searchStream: every row, in batches of up to 10000, for one operation. */
  searchStream(call: AdsCall, customerId: string, body: unknown): Record<string, unknown>[] {
    return this.#call(call, 'searchStream', customerId, (customer) => {
      const request = searchRequest(body, ['query', 'summaryRowSetting']);
      const { rows, fieldMask } = this.#run(customer, request.query);
      const requestId = randomBytes(16).toString('base64url').slice(0, 22);
      const batches: Record<string, unknown>[] = [];
      for (let at = 0; at < rows.length || batches.length === 0; at += 10_000) {
        const chunk = rows.slice(at, at + 10_000);
        batches.push({ ...(chunk.length ? { results: chunk } : {}), fieldMask, requestId });
      }
      return batches;
    });
  }

  quota(): GoogleQuotaView {
    this.#rollQuotaDay();
    const now = this.#host.now();
    return {
      dailyOperations: this.#host.dailyOperations,
      remainingOperations: this.#quota.remaining,
      resetsAt: new Date(now + this.#secondsToQuotaReset() * 1000).toISOString(),
      exhaustedUntil:
        this.#quota.exhaustedUntil > now ? new Date(this.#quota.exhaustedUntil).toISOString() : null,
    };
  }

  setRemainingOperations(remaining: number): void {
    this.#rollQuotaDay();
    this.#quota.remaining = remaining;
  }

  exhaustFor(seconds: number): void {
    this.#quota.exhaustedUntil = this.#host.now() + seconds * 1000;
  }

  usage(): GoogleUsage {
    return structuredClone(this.#usage);
  }

  resetUsage(): void {
    this.#usage = newUsage();
  }

  #run(customer: AdsCustomer, query: string) {
    try {
      return runGaql(parseGaql(query), {
        customer,
        findCustomer: this.#host.customer,
        clock: localClock(this.#host.now(), customer.timeZone),
      });
    } catch (error) {
      if (!(error instanceof GaqlError)) throw error;
      throw new GoogleAdsError(400, { queryError: error.code }, error.message);
    }
  }

  /** Checks a request as Google does (token, developer token, quota, access), runs it, counts it. */
  #call<T>(
    call: AdsCall,
    endpoint: string,
    customerId: string | null,
    run: (customer: AdsCustomer, user: AdsUser) => T,
  ): T {
    const usage = this.#usage;
    const counters = [usage.total, (usage.byEndpoint[endpoint] ??= newCounter())];
    if (customerId !== null) counters.push((usage.byCustomer[customerId] ??= newCounter()));
    for (const counter of counters) counter.requests += 1;
    try {
      const user = this.#authenticate(call);
      const byUser = (usage.byUser[user.email] ??= newCounter());
      byUser.requests += 1;
      counters.push(byUser);
      this.#checkQuota();
      const customer = customerId === null ? null : this.#reach(user, customerId, call.loginCustomerId);
      const result = run(customer as AdsCustomer, user);
      this.#quota.remaining -= 1;
      for (const counter of counters) counter.operations += 1;
      return result;
    } catch (error) {
      for (const counter of counters) counter.errors += 1;
      throw error;
    }
  }

  #authenticate(call: AdsCall): AdsUser {
    const bearer = /^Bearer\s+(\S+)$/i.exec(call.authorization ?? '')?.[1];
    if (!bearer) {
      throw new GoogleAdsError(
        401,
        { authenticationError: 'OAUTH_TOKEN_HEADER_INVALID' },
        'OAuth token HTTP header is malformed or missing: send Authorization: Bearer <access token>.',
      );
    }
    const grant = this.#host.oauth.check(bearer);
    if (typeof grant === 'string') {
      const messages = {
        OAUTH_TOKEN_INVALID: 'OAuth token in the header is not valid.',
        OAUTH_TOKEN_EXPIRED: 'OAuth token in the header has expired.',
        OAUTH_TOKEN_REVOKED: 'OAuth token in the header has been revoked.',
      };
      throw new GoogleAdsError(401, { authenticationError: grant }, messages[grant]);
    }
    if (!grant.scopes.includes(ADWORDS_SCOPE)) {
      throw new GoogleAdsError(403, {}, 'Request had insufficient authentication scopes.', {
        reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
      });
    }
    if (!call.developerToken) {
      throw new GoogleAdsError(
        400,
        { requestError: 'DEVELOPER_TOKEN_PARAMETER_MISSING' },
        'developer-token parameter is missing.',
      );
    }
    if (call.developerToken !== this.#host.developerToken) {
      throw new GoogleAdsError(
        401,
        { authenticationError: 'DEVELOPER_TOKEN_INVALID' },
        'The developer token is not valid.',
      );
    }
    const user = this.#host.user(grant.email);
    if (!user || user.customerIds.length === 0) {
      throw new GoogleAdsError(
        401,
        { authenticationError: 'NOT_ADS_USER' },
        'The Google account that generated the OAuth access token is not associated with any Ads accounts. Create a new account, or add the Google account to an existing Ads account.',
      );
    }
    return user;
  }

  #checkQuota(): void {
    const now = this.#host.now();
    if (this.#quota.exhaustedUntil > now) {
      const seconds = Math.ceil((this.#quota.exhaustedUntil - now) / 1000);
      throw new GoogleAdsError(
        429,
        { quotaError: 'RESOURCE_TEMPORARILY_EXHAUSTED' },
        `Too many requests. Retry in ${seconds} seconds.`,
        {
          quotaErrorDetails: {
            rateScope: 'DEVELOPER',
            rateName: 'Requests per developer token',
            retryDelay: `${seconds}s`,
          },
        },
      );
    }
    this.#rollQuotaDay();
    if (this.#quota.remaining <= 0) {
      throw new GoogleAdsError(
        429,
        { quotaError: 'RESOURCE_EXHAUSTED' },
        'Number of operations for basic access has been exceeded.',
        {
          quotaErrorDetails: {
            rateScope: 'DEVELOPER',
            rateName: 'Number of operations for basic access',
            retryDelay: `${this.#secondsToQuotaReset()}s`,
          },
        },
      );
    }
  }

  /** The customer the request operates on, if the user reaches it: directly, or below login-customer-id. */
  #reach(user: AdsUser, customerId: string, loginCustomerId: string | undefined): AdsCustomer {
    if (!/^\d{1,20}$/.test(customerId))
      throw new GoogleAdsError(
        400,
        { requestError: 'INVALID_CUSTOMER_ID' },
        `Invalid customer ID '${customerId}'.`,
      );
    if (loginCustomerId !== undefined && !/^\d{1,20}$/.test(loginCustomerId)) {
      throw new GoogleAdsError(
        401,
        { authenticationError: 'CLIENT_CUSTOMER_ID_INVALID' },
        `Invalid login-customer-id '${loginCustomerId}': send the customer id's digits, without dashes.`,
      );
    }
    const customer = this.#host.customer(customerId);
    const login = loginCustomerId ?? customerId;
    let reached = customer !== undefined && user.customerIds.includes(login);
    if (customer && reached && login !== customerId) {
      reached = false;
      for (
        let at = customer.managerId;
        at !== null && !reached;
        at = this.#host.customer(at)?.managerId ?? null
      ) {
        reached = at === login;
      }
    }
    if (!customer || !reached)
      throw new GoogleAdsError(403, { authorizationError: 'USER_PERMISSION_DENIED' }, PERMISSION_DENIED);
    if (customer.status === 'CANCELED' || customer.status === 'CLOSED') {
      throw new GoogleAdsError(
        403,
        { authorizationError: 'CUSTOMER_NOT_ENABLED' },
        "The customer account can't be accessed because it is not yet enabled or has been deactivated.",
      );
    }
    return customer;
  }

  /** Google's daily quota restarts at midnight Pacific time. */
  #quotaDay(): number {
    return localClock(this.#host.now(), 'America/Los_Angeles').today;
  }

  #secondsToQuotaReset(): number {
    const clock = localClock(this.#host.now(), 'America/Los_Angeles');
    return Math.max(1, Math.ceil((24 - clock.hour - clock.hourFraction) * 3600));
  }

  #rollQuotaDay(): void {
    const day = this.#quotaDay();
    if (day !== this.#quota.day) this.#quota = { ...this.#quota, remaining: this.#host.dailyOperations, day };
  }
}

function searchRequest(
  body: unknown,
  keys: string[],
): { query: string; pageToken?: string; returnTotalResultsCount: boolean } {
  const object = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const unknown = Object.keys(object).find((key) => !keys.includes(key));
  if (unknown !== undefined) {
    const description = `Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`;
    throw new GoogleAdsError(400, {}, description, { fieldViolations: [{ description }] });
  }
  if (typeof object.query !== 'string' || !object.query.trim())
    throw new GoogleAdsError(400, { fieldError: 'REQUIRED' }, 'The required field was not present.');
  if (object.pageToken !== undefined && typeof object.pageToken !== 'string')
    throw new GoogleAdsError(400, { requestError: 'INVALID_PAGE_TOKEN' }, 'Page token is invalid.');
  return {
    query: object.query,
    pageToken: object.pageToken || undefined,
    returnTotalResultsCount: object.returnTotalResultsCount === true,
  };
}

/**
 * Google's error body: `{ error: { code, message, status, details } }`. A Google Ads error carries a
 * GoogleAdsFailure (`@type` of the path's version) with one error and the request id; Google's front end
 * answers the others (scope, unknown JSON field) with its own detail types.
 */
export function adsErrorBody(error: GoogleAdsError, version: string, requestId: string): object {
  const [status, generic] = GRPC_STATUS[error.status] ?? ['UNKNOWN', error.message];
  let details: object[];
  if (Object.keys(error.errorCode).length > 0) {
    const quota = error.details?.quotaErrorDetails;
    details = [
      {
        '@type': `type.googleapis.com/google.ads.googleads.${version}.errors.GoogleAdsFailure`,
        errors: [
          {
            errorCode: error.errorCode,
            message: error.message,
            ...(quota ? { details: { quotaErrorDetails: quota } } : {}),
          },
        ],
        requestId,
      },
    ];
  } else if (error.details?.reason) {
    details = [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: error.details.reason,
        domain: 'googleapis.com',
        metadata: {
          service: 'googleads.googleapis.com',
          method: 'google.ads.googleads.v*.services.GoogleAdsService',
        },
      },
    ];
  } else {
    details = [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', ...error.details }];
  }
  const message = Object.keys(error.errorCode).length > 0 ? generic : error.message;
  return { error: { code: error.status, message, status, details } };
}

type Headers = Record<string, string | string[] | undefined>;
const header = (headers: Headers, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Registers `/ads/{version}/…` under the Google prefix; any `v\d+` version is accepted. */
export function registerGoogleAdsApi(app: FastifyInstance, api: GoogleAdsApi): void {
  const send = async (reply: FastifyReply, version: string, answer: () => unknown) => {
    const requestId = randomBytes(16).toString('base64url').slice(0, 22);
    reply.header('request-id', requestId);
    if (!/^v\d+$/.test(version)) {
      return reply
        .code(404)
        .send(adsErrorBody(new GoogleAdsError(404, {}, 'Not Found', {}), 'v0', requestId));
    }
    try {
      return reply.send(answer());
    } catch (error) {
      if (!(error instanceof GoogleAdsError)) throw error;
      return reply.code(error.status).send(adsErrorBody(error, version, requestId));
    }
  };
  const callOf = (version: string, headers: Headers): AdsCall => ({
    version,
    authorization: header(headers, 'authorization'),
    developerToken: header(headers, 'developer-token'),
    loginCustomerId: header(headers, 'login-customer-id'),
  });

  // A body that is not JSON gets Google's answer, not Fastify's.
  app.setErrorHandler((error, request, reply) => {
    const version = /\/ads\/(v\d+)\//.exec(request.url)?.[1] ?? 'v0';
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) throw error;
    const description =
      `Invalid JSON payload received. ${error instanceof Error ? error.message : ''}`.trim();
    const failure = new GoogleAdsError(400, {}, description, { fieldViolations: [{ description }] });
    return reply
      .code(400)
      .send(adsErrorBody(failure, version, randomBytes(16).toString('base64url').slice(0, 22)));
  });

  app.get<{ Params: { version: string } }>(
    '/ads/:version/customers::listAccessibleCustomers',
    (request, reply) =>
      send(reply, request.params.version, () =>
        api.listAccessibleCustomers(callOf(request.params.version, request.headers)),
      ),
  );

  app.post<{ Params: { version: string; customerId: string }; Body: unknown }>(
    '/ads/:version/customers/:customerId/googleAds::search',
    (request, reply) =>
      send(reply, request.params.version, () =>
        api.search(callOf(request.params.version, request.headers), request.params.customerId, request.body),
      ),
  );

  app.post<{ Params: { version: string; customerId: string }; Body: unknown }>(
    '/ads/:version/customers/:customerId/googleAds::searchStream',
    (request, reply) =>
      send(reply, request.params.version, () =>
        api.searchStream(
          callOf(request.params.version, request.headers),
          request.params.customerId,
          request.body,
        ),
      ),
  );
}

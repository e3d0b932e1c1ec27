import type { FastifyInstance } from 'fastify';
import { MetaActionError, type EffectiveStatus, type MetaSandbox } from './meta.ts';

const STATUS_OF: Record<MetaActionError['code'], number> = { INVALID: 400, NOT_FOUND: 404, CONFLICT: 409 };

type Body = Record<string, unknown> | undefined;

function number(body: Body, name: string): number {
  const value = body?.[name];
  if (typeof value !== 'number') throw new MetaActionError('INVALID', `${name} must be a number.`);
  return value;
}

function optionalNumber(body: Body, name: string): number | undefined {
  return body?.[name] === undefined ? undefined : number(body, name);
}

function text(body: Body, name: string): string | undefined {
  const value = body?.[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The sandbox's own JSON API for the Meta stand-in, under `${basePath}/api/meta`, for tests and benchmarks:
 * people, accounts and their ad sets and ads, the changes Meta or a person makes, tokens, throttles and the
 * Graph API's counters. Answers `{ data }`, errors `{ code, message }`.
 */
export function registerMetaApi(app: FastifyInstance, meta: MetaSandbox): void {
  app.setErrorHandler((error, _request, reply) => {
    if (!(error instanceof MetaActionError)) throw error;
    return reply.code(STATUS_OF[error.code]).send({ code: error.code, message: error.message });
  });

  app.get('/', async () => ({
    data: {
      appId: meta.appId,
      graphUrl: meta.graphUrl,
      dialogUrl: meta.dialogUrl,
      graphVersion: meta.graphVersion,
      redirectUris: meta.redirectUris,
      appThrottledUntil: meta.appThrottledUntil,
      users: meta.users(),
    },
  }));

  app.delete('/', async () => {
    meta.reset();
    return { data: null };
  });

  app.get<{ Querystring: { user?: string; offset?: string; limit?: string } }>(
    '/accounts',
    async (request) => {
      const { user, offset, limit } = request.query;
      return {
        data: meta.accounts({
          userId: user,
          offset: offset === undefined ? undefined : Number(offset),
          limit: limit === undefined ? undefined : Number(limit),
        }),
      };
    },
  );

  app.post<{ Body: Body }>('/accounts', async (request) => ({
    data: {
      ids: meta.addAccounts(number(request.body, 'count'), {
        userId: text(request.body, 'userId'),
        adSetsPerAccount: optionalNumber(request.body, 'adSetsPerAccount'),
        adsPerAccount: optionalNumber(request.body, 'adsPerAccount'),
        currency: text(request.body, 'currency'),
        timezone: text(request.body, 'timezone'),
      }),
    },
  }));

  app.get<{ Params: { id: string } }>('/accounts/:id', async (request) => {
    const account = meta.account(request.params.id);
    if (!account) throw new MetaActionError('NOT_FOUND', `There is no ad account ${request.params.id}.`);
    return { data: account };
  });

  app.post<{ Params: { id: string }; Body: Body }>('/accounts/:id/status', async (request) => ({
    data: meta.setAccountStatus(
      request.params.id,
      number(request.body, 'accountStatus'),
      optionalNumber(request.body, 'disableReason'),
    ),
  }));

  app.post<{ Params: { id: string }; Body: Body }>('/accounts/:id/spend', async (request) => ({
    data: meta.setSpend(request.params.id, {
      amountSpent: optionalNumber(request.body, 'amountSpent'),
      spendCap: optionalNumber(request.body, 'spendCap'),
    }),
  }));

  app.post<{ Params: { id: string }; Body: Body }>('/accounts/:id/today', async (request) => ({
    data: meta.scaleTodaySpend(request.params.id, number(request.body, 'factor')),
  }));

  app.post<{ Params: { id: string }; Body: Body }>('/adsets/:id/status', async (request) => ({
    data: meta.setAdSetStatus(
      request.params.id,
      String(request.body?.effectiveStatus ?? '') as EffectiveStatus,
      text(request.body, 'issue'),
    ),
  }));

  app.post<{ Params: { id: string }; Body: Body }>('/ads/:id/status', async (request) => ({
    data: meta.setAdStatus(
      request.params.id,
      String(request.body?.effectiveStatus ?? '') as EffectiveStatus,
      text(request.body, 'issue'),
    ),
  }));

  app.get<{ Querystring: { user?: string } }>('/tokens', async (request) => ({
    data: { list: meta.tokens(request.query.user) },
  }));

  app.post<{ Params: { id: string }; Body: Body }>('/users/:id/tokens', async (request) => {
    const scopes = request.body?.scopes;
    if (scopes !== undefined && !(Array.isArray(scopes) && scopes.every((s) => typeof s === 'string')))
      throw new MetaActionError('INVALID', 'scopes must be a list of permission names.');
    return {
      data: meta.issueToken(request.params.id, {
        scopes: scopes as string[] | undefined,
        longLived: request.body?.longLived === false ? false : undefined,
      }),
    };
  });

  app.post<{ Params: { id: string }; Body: Body }>('/users/:id/revoke', async (request) => {
    const reason = text(request.body, 'reason') ?? 'password';
    if (reason !== 'password' && reason !== 'app_removed')
      throw new MetaActionError('INVALID', 'reason must be password or app_removed.');
    return { data: { list: meta.revokeTokens(request.params.id, reason) } };
  });

  app.post<{ Params: { id: string }; Body: Body }>('/users/:id/expire', async (request) => ({
    data: { list: meta.expireTokens(request.params.id, number(request.body, 'days')) },
  }));

  app.post<{ Body: Body }>('/throttle', async (request) => {
    const kind = text(request.body, 'kind');
    if (kind !== 'account' && kind !== 'user' && kind !== 'app')
      throw new MetaActionError('INVALID', 'kind must be account, user or app.');
    meta.throttle({ kind, id: text(request.body, 'id') }, number(request.body, 'seconds'));
    return { data: null };
  });

  app.get('/calls', async () => ({ data: meta.calls() }));

  app.delete('/calls', async () => {
    meta.resetCalls();
    return { data: null };
  });
}

import type { FastifyInstance } from 'fastify';
import {
  GoogleActionError,
  type AddCustomersInput,
  type ApprovalStatus,
  type CampaignPrimaryStatus,
  type CampaignPrimaryStatusReason,
  type CustomerStatus,
  type GoogleSandbox,
  type PolicyTopicType,
} from './google.ts';

const STATUS_OF: Record<GoogleActionError['code'], number> = { INVALID: 400, NOT_FOUND: 404, CONFLICT: 409 };

type Body = Record<string, unknown> | undefined;
type CustomerParams = { customerId: string };

function text(body: Body, name: string): string | undefined {
  const value = body?.[name];
  if (value !== undefined && typeof value !== 'string')
    throw new GoogleActionError('INVALID', `${name} must be a string.`);
  return value;
}

function number(body: Body, name: string): number | undefined {
  const value = body?.[name];
  if (value !== undefined && typeof value !== 'number')
    throw new GoogleActionError('INVALID', `${name} must be a number.`);
  return value;
}

function list(body: Body, name: string): string[] | undefined {
  const value = body?.[name];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw new GoogleActionError('INVALID', `${name} must be a list of strings.`);
  return value as string[];
}

/**
 * The sandbox's own JSON API for the Google stand-in, under `${basePath}/api/google`, for tests and benchmarks:
 * users and customers, what Google or the account's owner changes (account status, ad approval, campaign
 * primary status, today's traffic, revoked access), the quota, the usage counters and the tokens issued.
 * Answers `{ data }`, errors `{ code, message }`.
 */
export function registerGoogleApi(app: FastifyInstance, google: GoogleSandbox): void {
  app.setErrorHandler((error, _request, reply) => {
    if (!(error instanceof GoogleActionError)) throw error;
    return reply.code(STATUS_OF[error.code]).send({ code: error.code, message: error.message });
  });

  app.get('/', async () => ({
    data: {
      clientId: google.clientId,
      developerToken: google.developerToken,
      redirectUris: google.redirectUris,
      endpoints: google.endpoints,
      pageSize: google.pageSize,
      users: google.users(),
      customers: google.customers(),
      quota: google.quota(),
    },
  }));

  app.delete('/', async () => {
    google.reset();
    return { data: null };
  });

  app.get('/users', async () => ({ data: { list: google.users() } }));

  app.post<{ Body: Body }>('/users', async (request) => ({
    data: google.addUser({
      email: text(request.body, 'email') ?? '',
      name: text(request.body, 'name'),
      customerIds: list(request.body, 'customerIds'),
    }),
  }));

  app.post<{ Params: { email: string } }>('/users/:email/revoke', async (request) => ({
    data: google.revokeUser(request.params.email),
  }));

  app.get('/customers', async () => ({ data: { list: google.customers() } }));

  app.post<{ Body: Body }>('/customers', async (request) => {
    const input: AddCustomersInput = {
      managerId: text(request.body, 'managerId'),
      userEmail: text(request.body, 'userEmail'),
      adsPerCustomer: number(request.body, 'adsPerCustomer'),
      campaignsPerCustomer: number(request.body, 'campaignsPerCustomer'),
      namePrefix: text(request.body, 'namePrefix'),
      currencyCode: text(request.body, 'currencyCode'),
      timeZone: text(request.body, 'timeZone'),
    };
    return { data: { list: google.addCustomers(number(request.body, 'count') ?? 1, input) } };
  });

  app.get<{ Params: CustomerParams }>('/customers/:customerId', async (request) => {
    const customer = google.customer(request.params.customerId);
    if (!customer)
      throw new GoogleActionError('NOT_FOUND', `There is no customer ${request.params.customerId}.`);
    return { data: customer };
  });

  app.post<{ Params: CustomerParams; Body: Body }>('/customers/:customerId/status', async (request) => ({
    data: google.setCustomerStatus(
      request.params.customerId,
      (text(request.body, 'status') ?? '') as CustomerStatus,
    ),
  }));

  app.post<{ Params: CustomerParams; Body: Body }>('/customers/:customerId/today', async (request) => {
    const factor = number(request.body, 'factor');
    if (factor === undefined) throw new GoogleActionError('INVALID', 'factor must be a number.');
    return { data: google.scaleToday(request.params.customerId, factor) };
  });

  app.post<{ Params: CustomerParams & { campaignId: string }; Body: Body }>(
    '/customers/:customerId/campaigns/:campaignId/primary-status',
    async (request) => ({
      data: google.setCampaignPrimaryStatus(
        request.params.customerId,
        request.params.campaignId,
        (text(request.body, 'primaryStatus') ?? '') as CampaignPrimaryStatus,
        (list(request.body, 'reasons') ?? []) as CampaignPrimaryStatusReason[],
      ),
    }),
  );

  app.post<{ Params: CustomerParams & { adId: string }; Body: Body }>(
    '/customers/:customerId/ads/:adId/approval',
    async (request) => ({
      data: google.setAdApproval(
        request.params.customerId,
        request.params.adId,
        (text(request.body, 'approvalStatus') ?? '') as ApprovalStatus,
        {
          topic: text(request.body, 'topic'),
          type: text(request.body, 'type') as PolicyTopicType | undefined,
        },
      ),
    }),
  );

  app.get('/tokens', async () => ({ data: { list: google.accessTokens() } }));

  app.get('/quota', async () => ({ data: google.quota() }));

  app.post<{ Body: Body }>('/quota', async (request) => {
    const remaining = number(request.body, 'remainingOperations');
    const seconds = number(request.body, 'exhaustForSeconds');
    if (remaining === undefined && seconds === undefined)
      throw new GoogleActionError('INVALID', 'Send remainingOperations or exhaustForSeconds.');
    if (remaining !== undefined) google.setRemainingOperations(remaining);
    if (seconds !== undefined) google.exhaustQuota(seconds);
    return { data: google.quota() };
  });

  app.get('/usage', async () => ({ data: google.usage() }));

  app.delete('/usage', async () => {
    google.resetUsage();
    return { data: null };
  });
}

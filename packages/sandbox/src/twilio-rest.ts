import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  accountPath,
  callJson,
  callRequest,
  messageJson,
  messageRequest,
  TwilioApiError,
  type Form,
} from './twilio-resources.ts';
import type { ActiveFault, TwilioResource, TwilioSandbox } from './twilio.ts';

/**
 * Twilio's REST API (2010-04-01) as the sandbox serves it under `${basePath}/twilio`, the stand-in for
 * https://api.twilio.com: HTTP Basic auth with AccountSid:AuthToken, form-encoded requests, Twilio's resource
 * JSON and list pages, and Twilio's error bodies. Injected faults answer before anything else does.
 */
type Query = Record<string, string | undefined>;

function sendError(reply: FastifyReply, error: { status: number; code: number; message: string }) {
  return reply.code(error.status).send({
    code: error.code,
    message: error.message,
    more_info: `https://www.twilio.com/docs/errors/${error.code}`,
    status: error.status,
  });
}

/**
 * Twilio's DateSent filters: `DateSent=YYYY-MM-DD` that day; `DateSent>=` on or after, `DateSent<=` on or
 * before (the query string parser sees the names `DateSent>` and `DateSent<`), each a day or an instant.
 */
function sentWithin(sentIso: string, q: Query): boolean {
  const sent = Date.parse(sentIso);
  const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
  const exact = q.DateSent;
  if (exact && !sentIso.startsWith(exact.slice(0, 10))) return false;
  const after = q['DateSent>'];
  if (after && sent < Date.parse(after)) return false;
  const before = q['DateSent<'];
  if (before && sent > Date.parse(before) + (isDay(before) ? 86_399_999 : 0)) return false;
  return true;
}

export function registerTwilioRest(app: FastifyInstance, phone: TwilioSandbox): void {
  const { account } = phone;
  const resourcePath = (resource: TwilioResource) => `${accountPath(account)}/${resource}.json`;

  app.addHook('preHandler', async (request: FastifyRequest<{ Params: { accountSid?: string } }>, reply) => {
    const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const [user, password] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(/:(.*)/s) : [];
    if (user !== account.sid || password !== account.authToken || request.params.accountSid !== account.sid) {
      reply.header('WWW-Authenticate', 'Basic realm="Twilio API"');
      return sendError(reply, { status: 401, code: 20003, message: 'Authenticate' });
    }
  });

  /** A fault's answer first (a failing Twilio answers before looking), then validation, creation, the 201. */
  async function create<T>(
    resource: TwilioResource,
    request: FastifyRequest,
    reply: FastifyReply,
    make: (form: Form) => T,
    toJson: (created: T) => object,
  ) {
    phone.countRequest(resource);
    const fault = phone.takeFault(resource);
    const faultAnswer = async (stage: ActiveFault['stage']) => {
      if (fault?.stage !== stage) return null;
      await phone.hold(fault.holdMs);
      return fault.status === null
        ? null
        : { status: fault.status, code: fault.code, message: fault.message };
    };
    const early = await faultAnswer('before');
    if (early) return sendError(reply, early);
    let created: T;
    try {
      created = make((request.body ?? {}) as Form);
    } catch (error) {
      if (error instanceof TwilioApiError) return sendError(reply, error);
      throw error;
    }
    const late = await faultAnswer('after');
    if (late) return sendError(reply, late);
    return reply.code(201).send(toJson(created));
  }

  /** One page of a list with Twilio's paging fields; the filters stay in the page URIs. */
  function listPage(resource: TwilioResource, items: object[], query: Query, filterNames: string[]) {
    const pageSize = Math.min(Math.max(Number.parseInt(query.PageSize ?? '', 10) || 50, 1), 1000);
    const page = Math.max(Number.parseInt(query.Page ?? '', 10) || 0, 0);
    const start = page * pageSize;
    const slice = items.slice(start, start + pageSize);
    const uriOf = (n: number) => {
      const params = new URLSearchParams();
      for (const name of filterNames) if (query[name] !== undefined) params.set(name, query[name]);
      params.set('PageSize', String(pageSize));
      params.set('Page', String(n));
      return `${resourcePath(resource)}?${params}`;
    };
    return {
      [resource.toLowerCase()]: slice,
      end: Math.max(start, start + slice.length - 1),
      first_page_uri: uriOf(0),
      next_page_uri: start + pageSize < items.length ? uriOf(page + 1) : null,
      page,
      page_size: pageSize,
      previous_page_uri: page > 0 ? uriOf(page - 1) : null,
      start,
      uri: uriOf(page),
    };
  }

  /** GET {Resource}/{Sid}.json, or Twilio's 20404. */
  function fetchOne(
    file: string,
    find: (sid: string) => object | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const found = file.endsWith('.json') ? find(file.slice(0, -'.json'.length)) : undefined;
    if (found) return found;
    const path = request.url.slice(request.url.indexOf(accountPath(account))).split('?')[0];
    return sendError(reply, {
      status: 404,
      code: 20404,
      message: `The requested resource ${path} was not found`,
    });
  }

  app.post('/2010-04-01/Accounts/:accountSid/Messages.json', (request, reply) =>
    create(
      'Messages',
      request,
      reply,
      (form) => phone.sendMessage(messageRequest(form, account, (to) => phone.isOptedOut(to))),
      (message) => messageJson(message, account),
    ),
  );

  app.get<{ Querystring: Query }>('/2010-04-01/Accounts/:accountSid/Messages.json', async (request) => {
    const q = request.query;
    const messages = phone
      .messages({ to: q.To, from: q.From })
      .filter((message) => sentWithin(message.sentAt ?? message.createdAt, q));
    return listPage(
      'Messages',
      messages.map((message) => messageJson(message, account)),
      q,
      ['To', 'From', 'DateSent', 'DateSent<', 'DateSent>'],
    );
  });

  app.get<{ Params: { file: string } }>(
    '/2010-04-01/Accounts/:accountSid/Messages/:file',
    async (request, reply) =>
      fetchOne(
        request.params.file,
        (sid) => {
          const message = phone.message(sid);
          return message && messageJson(message, account);
        },
        request,
        reply,
      ),
  );

  app.post('/2010-04-01/Accounts/:accountSid/Calls.json', (request, reply) =>
    create(
      'Calls',
      request,
      reply,
      (form) => phone.startCall(callRequest(form, account, phone.callTimeoutSeconds)),
      (call) => callJson(call, account),
    ),
  );

  app.get<{ Querystring: Query }>('/2010-04-01/Accounts/:accountSid/Calls.json', async (request) => {
    const q = request.query;
    const calls = phone.calls({ to: q.To, from: q.From, status: q.Status });
    return listPage(
      'Calls',
      calls.map((call) => callJson(call, account)),
      q,
      ['To', 'From', 'Status'],
    );
  });

  app.get<{ Params: { file: string } }>(
    '/2010-04-01/Accounts/:accountSid/Calls/:file',
    async (request, reply) =>
      fetchOne(
        request.params.file,
        (sid) => {
          const call = phone.call(sid);
          return call && callJson(call, account);
        },
        request,
        reply,
      ),
  );
}

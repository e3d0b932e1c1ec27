import type { FastifyInstance } from 'fastify';
import { PhoneActionError } from './twilio-account.ts';
import type { SandboxCall } from './twilio-calls.ts';
import type { TwilioFault, TwilioSandbox } from './twilio.ts';

/** What a person can do to a call, by the name the JSON API and the /phone page use. */
export const CALL_ACTIONS: Record<
  string,
  (phone: TwilioSandbox, sid: string, digits: string) => Promise<SandboxCall>
> = {
  answer: (phone, sid) => phone.answer(sid),
  press: (phone, sid, digits) => phone.press(sid, digits),
  hangup: (phone, sid) => phone.hangUp(sid),
  'no-answer': (phone, sid) => phone.leaveUnanswered(sid),
  busy: (phone, sid) => phone.busy(sid),
};

const STATUS_OF: Record<PhoneActionError['code'], number> = { INVALID: 400, NOT_FOUND: 404, CONFLICT: 409 };

type Body = Record<string, unknown> | undefined;

function text(body: Body, name: string): string {
  const value = body?.[name];
  return typeof value === 'string' ? value : '';
}

/**
 * The sandbox's own JSON API, under `${basePath}/api/twilio`, for browser tests: what Twilio sent and
 * received, and the person's side of calls and texts. Answers `{ data }`, errors `{ code, message }`.
 */
export function registerTwilioApi(app: FastifyInstance, phone: TwilioSandbox): void {
  app.setErrorHandler((error, _request, reply) => {
    if (!(error instanceof PhoneActionError)) throw error;
    return reply.code(STATUS_OF[error.code]).send({ code: error.code, message: error.message });
  });

  app.get('/', async () => ({
    data: { accountSid: phone.account.sid, phoneNumber: phone.phoneNumber, requests: phone.requests },
  }));

  app.delete('/', async () => {
    phone.reset();
    return { data: null };
  });

  app.get<{ Querystring: { to?: string; from?: string } }>('/messages', async (request) => ({
    data: { list: phone.messages({ to: request.query.to, from: request.query.from }) },
  }));

  app.get<{ Querystring: { to?: string; from?: string } }>('/calls', async (request) => ({
    data: { list: phone.calls({ to: request.query.to, from: request.query.from }) },
  }));

  app.post<{ Params: { sid: string; action: string }; Body: Body }>(
    '/calls/:sid/:action',
    async (request, reply) => {
      const act = CALL_ACTIONS[request.params.action];
      if (!act) {
        return reply.code(404).send({
          code: 'NOT_FOUND',
          message: `Unknown action; use one of ${Object.keys(CALL_ACTIONS).join(', ')}.`,
        });
      }
      return { data: await act(phone, request.params.sid, text(request.body, 'digits')) };
    },
  );

  app.post<{ Body: Body }>('/inbound', async (request) => ({
    data: await phone.reply(text(request.body, 'from'), text(request.body, 'body')),
  }));

  app.post<{ Body: Body }>('/faults', async (request) => {
    phone.addFault((request.body ?? {}) as unknown as TwilioFault);
    return { data: null };
  });

  app.delete('/faults', async () => {
    phone.clearFaults();
    return { data: null };
  });

  app.post<{ Body: Body }>('/unreachable', async (request) => {
    phone.setUnreachable(text(request.body, 'number'), request.body?.unreachable !== false);
    return { data: null };
  });
}

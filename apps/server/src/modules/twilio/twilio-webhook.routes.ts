import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { refuseControlCharacters } from '../../lib/validation.ts';
import { isValidTwilioSignature } from '../../notify/twilio.ts';
import type { PhoneEventService, TwilioParams } from './phone-events.service.ts';

const deliveryQuery = z.object({ delivery: z.uuid() });

const NOT_A_FORM = 'Twilio webhooks take form posts: send Content-Type: application/x-www-form-urlencoded.';

function parseForm(body: string): TwilioParams {
  const params: TwilioParams = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const seen = params[key];
    params[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return params;
}

/**
 * Twilio's webhooks: call and SMS status callbacks, the key press of an alert call, and incoming SMS. Each
 * request must carry a valid X-Twilio-Signature over the URL Vigil gave Twilio (PUBLIC_URL + path and query)
 * and the posted parameters; anything else is refused with 403 before it is read. Twilio posts forms of text
 * fields only, so that is all this scope parses: any other body type (JSON, whose numbers and objects the
 * handlers would choke on) is a 400, even when signed.
 */
export const twilioWebhookRoutes: FastifyPluginAsync<{
  events: PhoneEventService;
  authToken: string;
  publicUrl: string;
}> = async (app, { events, authToken, publicUrl }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, parseForm(body as string)),
  );
  app.addContentTypeParser('*', (_request, _payload, done) =>
    done(new AppError('INVALID', NOT_A_FORM), undefined),
  );

  const signed = (request: FastifyRequest): TwilioParams => {
    const params = (request.body ?? {}) as TwilioParams;
    const signature = request.headers['x-twilio-signature'];
    const url = `${publicUrl}${request.url}`;
    if (
      !isValidTwilioSignature(authToken, url, params, typeof signature === 'string' ? signature : undefined)
    ) {
      throw new AppError('FORBIDDEN', 'This request is not signed by Twilio.');
    }
    refuseControlCharacters(params);
    return params;
  };
  const deliveryOf = (request: FastifyRequest): string => {
    const parsed = deliveryQuery.safeParse(request.query);
    if (!parsed.success) throw new AppError('INVALID', 'The delivery parameter is missing or not an id.');
    return parsed.data.delivery;
  };
  const twiml = (reply: FastifyReply, body: string) => reply.type('text/xml; charset=utf-8').send(body);
  const hidden = { schema: { hide: true } };

  app.post('/webhooks/twilio/call-status', hidden, async (request, reply) => {
    const params = signed(request);
    await events.callStatus(deliveryOf(request), params);
    return reply.code(204).send();
  });
  app.post('/webhooks/twilio/message-status', hidden, async (request, reply) => {
    const params = signed(request);
    await events.messageStatus(deliveryOf(request), params);
    return reply.code(204).send();
  });
  app.post('/webhooks/twilio/gather', hidden, async (request, reply) => {
    const params = signed(request);
    return twiml(reply, await events.gather(deliveryOf(request), params));
  });
  app.post('/webhooks/twilio/inbound-sms', hidden, async (request, reply) => {
    const params = signed(request);
    return twiml(reply, await events.inboundSms(params));
  });
};

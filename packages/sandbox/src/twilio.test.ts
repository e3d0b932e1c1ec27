import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, twilioSignature, type Sandbox, type TwilioSandbox } from './index.ts';
import { segmentCount } from './twilio-messaging.ts';
import { Waiters } from './waiters.ts';

const ACCOUNT_SID = `AC${'0123456789abcdef'.repeat(2)}`;
const AUTH_TOKEN = 'sandbox-auth-token';
const VIGIL_NUMBER = '+15005550006';
const PERSON = '+14155550100';

/** A request the sandbox sent to "Vigil", i.e. to the receiver below. */
interface Received {
  method: string;
  /** The full URL as requested, which is what Twilio signs. */
  url: string;
  path: string;
  params: Record<string, string>;
  signature: string | undefined;
}

type Answer = { status?: number; body: string };

/** Stands in for Vigil's webhook endpoints: records every request and answers per path (default `<Response/>`). */
function startReceiver() {
  const received: Received[] = [];
  const waiters = new Waiters<Received>('webhook');
  const routes = new Map<string, (request: Received) => Answer>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = `http://${req.headers.host}${req.url}`;
      const path = new URL(url).pathname;
      const request: Received = {
        method: req.method ?? '',
        url,
        path,
        params: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))),
        signature: req.headers['x-twilio-signature'] as string | undefined,
      };
      received.push(request);
      waiters.notify(request);
      const answer = routes.get(path)?.(request) ?? { body: '<Response/>' };
      res.writeHead(answer.status ?? 200, { 'Content-Type': 'text/xml' }).end(answer.body);
    });
  });
  return {
    received,
    routes,
    server,
    url: '',
    waitFor: (predicate: (request: Received) => boolean) => waiters.waitFor(received, predicate, 5000),
    at: (path: string) => received.filter((request) => request.path === path),
  };
}

/** Twilio's algorithm written out again, independently of the sandbox's, to check what it signs. */
function expectedSignature(url: string, params: Record<string, string>): string {
  const data =
    url +
    Object.keys(params)
      .sort()
      .map((name) => `${name}${params[name]}`)
      .join('');
  return createHmac('sha1', AUTH_TOKEN).update(Buffer.from(data, 'utf8')).digest('base64');
}

function expectSigned(request: Received) {
  expect(request.method).toBe('POST');
  expect(request.signature).toBe(expectedSignature(request.url, request.params));
}

const receiver = startReceiver();
let app: FastifyInstance;
let sandbox: Sandbox;
let phone: TwilioSandbox;
let origin = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
  sandbox = createSandbox({
    publicUrl: () => origin,
    smtpPort: 0,
    oidcClientId: 'client-a',
    oidcClientSecret: 'secret-a',
    twilio: {
      accountSid: ACCOUNT_SID,
      authToken: AUTH_TOKEN,
      phoneNumber: VIGIL_NUMBER,
      inboundSmsUrl: () => `${receiver.url}/inbound-sms?source=twilio`,
    },
  });
  phone = sandbox.phone;
  app = Fastify();
  await app.register(sandbox.plugin, { prefix: '/sandbox' });
  origin = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
  await sandbox.stop();
  await new Promise((resolve) => receiver.server.close(resolve));
});

beforeEach(() => {
  phone.reset();
  receiver.received.length = 0;
  receiver.routes.clear();
});

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** A request to the REST API as Twilio's clients make it: form-encoded, HTTP Basic auth. */
function rest(
  path: string,
  options: {
    form?: Record<string, string | string[]>;
    accountSid?: string;
    authorization?: string | null;
  } = {},
) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(options.form ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
  }
  const headers: Record<string, string> = {};
  const authorization =
    options.authorization === undefined ? basic(ACCOUNT_SID, AUTH_TOKEN) : options.authorization;
  if (authorization) headers.Authorization = authorization;
  return fetch(`${origin}/sandbox/twilio/2010-04-01/Accounts/${options.accountSid ?? ACCOUNT_SID}${path}`, {
    method: options.form ? 'POST' : 'GET',
    headers,
    body: options.form ? body : undefined,
  });
}

async function json<T = Record<string, unknown>>(response: Response | Promise<Response>): Promise<T> {
  return (await (await response).json()) as T;
}

function sendSms(form: Record<string, string> = {}) {
  return rest('/Messages.json', { form: { To: PERSON, From: VIGIL_NUMBER, Body: 'Shop is down', ...form } });
}

function placeCall(form: Record<string, string | string[]> = {}) {
  return rest('/Calls.json', {
    form: { To: PERSON, From: VIGIL_NUMBER, Url: `${receiver.url}/voice`, ...form },
  });
}

function twilioError(code: number, message: string, status: number) {
  return { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status };
}

describe('twilioSignature', () => {
  it("reproduces the worked example of Twilio's webhook security guide", () => {
    const params = {
      CallSid: 'CA1234567890ABCDE',
      Caller: '+12349013030',
      Digits: '1234',
      From: '+12349013030',
      To: '+18005551212',
    };
    expect(twilioSignature('12345', 'https://mycompany.com/myapp.php?foo=1&bar=2', params)).toBe(
      '0/KCTR6DLpKmkAf8muzZqo1nDgQ=',
    );
  });
});

describe('Twilio REST API: authentication', () => {
  it('answers 401 with error 20003 to missing or wrong credentials and to another account in the path', async () => {
    const expected = twilioError(20003, 'Authenticate', 401);
    for (const response of [
      await rest('/Messages.json', { authorization: null }),
      await rest('/Messages.json', { authorization: basic(ACCOUNT_SID, 'wrong') }),
      await rest('/Messages.json', { accountSid: `AC${'f'.repeat(32)}` }),
    ]) {
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(expected);
    }
  });
});

describe('Twilio REST API: messages', () => {
  it('creates a Message resource and posts signed status callbacks: sent, then delivered', async () => {
    const callback = `${receiver.url}/message-status?delivery=42`;
    const response = await sendSms({ StatusCallback: callback });
    expect(response.status).toBe(201);
    const message = await json(response);
    expect(message).toMatchObject({
      account_sid: ACCOUNT_SID,
      api_version: '2010-04-01',
      body: 'Shop is down',
      date_sent: null,
      direction: 'outbound-api',
      error_code: null,
      error_message: null,
      from: VIGIL_NUMBER,
      messaging_service_sid: null,
      num_media: '0',
      num_segments: '1',
      price: null,
      status: 'queued',
      to: PERSON,
    });
    const sid = message.sid as string;
    expect(sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(message.date_created).toMatch(
      /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \+0000$/,
    );
    expect(message.uri).toBe(`/2010-04-01/Accounts/${ACCOUNT_SID}/Messages/${sid}.json`);
    expect(message.subresource_uris).toEqual({
      media: `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages/${sid}/Media.json`,
    });

    await receiver.waitFor((r) => r.params.MessageStatus === 'delivered');
    const callbacks = receiver.at('/message-status');
    expect(callbacks.map((r) => r.params.MessageStatus)).toEqual(['sent', 'delivered']);
    for (const request of callbacks) {
      expectSigned(request);
      expect(request.url).toBe(callback);
      expect(request.params).toEqual({
        AccountSid: ACCOUNT_SID,
        ApiVersion: '2010-04-01',
        From: VIGIL_NUMBER,
        MessageSid: sid,
        MessageStatus: request.params.MessageStatus,
        SmsSid: sid,
        SmsStatus: request.params.MessageStatus,
        To: PERSON,
      });
    }
    expect(await json(rest(`/Messages/${sid}.json`))).toMatchObject({ sid, status: 'delivered' });
  });

  it('ends a message to an unreachable handset undelivered with error 30003', async () => {
    phone.setUnreachable(PERSON);
    await sendSms({ StatusCallback: `${receiver.url}/message-status` });
    const last = await receiver.waitFor((r) => r.params.MessageStatus === 'undelivered');
    expect(last.params.ErrorCode).toBe('30003');
    expect(phone.messages()[0]).toMatchObject({ status: 'undelivered', errorCode: 30003 });
  });

  it("refuses what Twilio refuses, with Twilio's error codes, and creates nothing", async () => {
    const cases: [Record<string, string>, number][] = [
      [{ To: '' }, 21604],
      [{ From: '' }, 21603],
      [{ Body: '  ' }, 21602],
      [{ To: '4155550100' }, 21211],
      [{ From: '+14155550199' }, 21606],
      [{ Body: 'x'.repeat(1601) }, 21617],
      [{ StatusCallback: 'not a url' }, 21609],
    ];
    for (const [form, code] of cases) {
      const response = await sendSms(form);
      expect(response.status, JSON.stringify(form)).toBe(400);
      expect(await response.json()).toMatchObject({
        code,
        status: 400,
        more_info: `https://www.twilio.com/docs/errors/${code}`,
      });
    }
    expect(phone.messages()).toEqual([]);
  });

  it('lists messages newest first, filtered by To, with paging fields, and answers 20404 for an unknown SID', async () => {
    await sendSms({ Body: 'first' });
    await sendSms({ Body: 'second' });
    await sendSms({ To: '+14155550111', Body: 'elsewhere' });
    const page = await json(rest(`/Messages.json?To=${encodeURIComponent(PERSON)}&PageSize=50`));
    expect((page.messages as { body: string }[]).map((m) => m.body)).toEqual(['second', 'first']);
    expect(page).toMatchObject({
      page: 0,
      page_size: 50,
      start: 0,
      end: 1,
      next_page_uri: null,
      previous_page_uri: null,
      uri: `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json?To=%2B14155550100&PageSize=50&Page=0`,
    });
    const firstOfTwo = await json(rest('/Messages.json?PageSize=2'));
    expect(firstOfTwo.next_page_uri).toBe(
      `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json?PageSize=2&Page=1`,
    );
    const today = new Date().toISOString().slice(0, 10);
    expect(
      (await json<{ messages: unknown[] }>(rest(`/Messages.json?DateSent%3E=${today}`))).messages,
    ).toHaveLength(3);
    expect(
      (await json<{ messages: unknown[] }>(rest('/Messages.json?DateSent%3C=2001-01-01'))).messages,
    ).toHaveLength(0);

    const missing = await rest(`/Messages/SM${'0'.repeat(32)}.json`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual(
      twilioError(
        20404,
        `The requested resource /2010-04-01/Accounts/${ACCOUNT_SID}/Messages/SM${'0'.repeat(32)}.json was not found`,
        404,
      ),
    );
  });

  it('counts message segments as carriers do: GSM-7 160/153, UCS-2 70/67', () => {
    expect(segmentCount('a'.repeat(160))).toBe(1);
    expect(segmentCount('a'.repeat(161))).toBe(2);
    expect(segmentCount('€'.repeat(80))).toBe(1);
    expect(segmentCount('é'.repeat(160))).toBe(1);
    expect(segmentCount('ą'.repeat(70))).toBe(1);
    expect(segmentCount('ą'.repeat(71))).toBe(2);
  });
});

describe('Twilio REST API: calls', () => {
  it('rings, fetches signed TwiML on answer, speaks, gathers a key, posts it to the action and completes', async () => {
    receiver.routes.set('/voice', () => ({
      body: `<?xml version="1.0" encoding="UTF-8"?><Response>
<Say language="de-DE" voice="Polly.Marlene">Shop &amp; Co ist nicht erreichbar.</Say>
<Gather input="dtmf" numDigits="1" action="/gather?delivery=7" method="POST" timeout="8"><Say language="de-DE">Drücken Sie 1.</Say></Gather>
<Say>Never reached.</Say></Response>`,
    }));
    receiver.routes.set('/gather', (request) => ({
      body:
        request.params.Digits === '1'
          ? '<Response><Say language="de-DE">Bestätigt.</Say><Hangup/></Response>'
          : '<Response/>',
    }));
    const statusUrl = `${receiver.url}/call-status?delivery=7`;
    const response = await placeCall({
      StatusCallback: statusUrl,
      StatusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
      Timeout: '30',
    });
    expect(response.status).toBe(201);
    const created = await json(response);
    const sid = created.sid as string;
    expect(sid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(created).toMatchObject({
      account_sid: ACCOUNT_SID,
      direction: 'outbound-api',
      status: 'queued',
      from: VIGIL_NUMBER,
      from_formatted: '(500) 555-0006',
      to: PERSON,
      duration: null,
      start_time: null,
      end_time: null,
      uri: `/2010-04-01/Accounts/${ACCOUNT_SID}/Calls/${sid}.json`,
    });

    await phone.waitForCall((c) => c.sid === sid && c.status === 'ringing');
    const answered = await phone.answer(sid);
    expect(answered).toMatchObject({ status: 'in-progress', gathering: true });
    expect(answered.spoken).toEqual([
      { text: 'Shop & Co ist nicht erreichbar.', language: 'de-DE', voice: 'Polly.Marlene' },
      { text: 'Drücken Sie 1.', language: 'de-DE', voice: null },
    ]);
    const [voice] = receiver.at('/voice');
    expectSigned(voice!);
    expect(voice!.params).toMatchObject({
      AccountSid: ACCOUNT_SID,
      ApiVersion: '2010-04-01',
      CallSid: sid,
      CallStatus: 'in-progress',
      Direction: 'outbound-api',
      From: VIGIL_NUMBER,
      To: PERSON,
    });

    const ended = await phone.press(sid, '1');
    expect(ended).toMatchObject({ status: 'completed', gathering: false, digits: ['1'] });
    expect(ended.spoken.map((s) => s.text)).toEqual([
      'Shop & Co ist nicht erreichbar.',
      'Drücken Sie 1.',
      'Bestätigt.',
    ]);
    expect(ended.duration).toBeGreaterThanOrEqual(1);
    const [gather] = receiver.at('/gather');
    expectSigned(gather!);
    expect(gather!.url).toBe(`${receiver.url}/gather?delivery=7`);
    expect(gather!.params).toMatchObject({
      CallSid: sid,
      Digits: '1',
      FinishedOnKey: '',
      CallStatus: 'in-progress',
    });

    const callbacks = receiver.at('/call-status');
    expect(callbacks.map((r) => [r.params.CallStatus, r.params.SequenceNumber])).toEqual([
      ['initiated', '0'],
      ['ringing', '1'],
      ['in-progress', '2'],
      ['completed', '3'],
    ]);
    for (const request of callbacks) {
      expectSigned(request);
      expect(request.url).toBe(statusUrl);
      expect(request.params).toMatchObject({
        CallSid: sid,
        CallbackSource: 'call-progress-events',
        Direction: 'outbound-api',
      });
      expect(request.params.Timestamp).toMatch(/ \+0000$/);
    }
    expect(callbacks[3]!.params.CallDuration).toBe(String(ended.duration));
    expect(await json(rest(`/Calls/${sid}.json`))).toMatchObject({
      status: 'completed',
      duration: String(ended.duration),
    });
  });

  it('runs inline Twiml without fetching anything', async () => {
    const { sid } = await json<{ sid: string }>(
      placeCall({ Url: '', Twiml: '<Response><Say language="es-ES">Hola</Say></Response>' }),
    );
    const call = await phone.answer(sid);
    expect(call).toMatchObject({
      status: 'completed',
      spoken: [{ text: 'Hola', language: 'es-ES', voice: null }],
    });
    expect(receiver.received).toEqual([]);
  });

  it('reports no-answer when left ringing (only the final callback by default) and busy when busy', async () => {
    const statusUrl = `${receiver.url}/call-status`;
    const { sid } = await json<{ sid: string }>(placeCall({ StatusCallback: statusUrl }));
    const call = await phone.leaveUnanswered(sid);
    expect(call).toMatchObject({ status: 'no-answer', duration: 0, answeredAt: null });
    expect(receiver.at('/call-status').map((r) => [r.params.CallStatus, r.params.CallDuration])).toEqual([
      ['no-answer', '0'],
    ]);
    expect(receiver.at('/voice')).toEqual([]);

    const busy = await json<{ sid: string }>(placeCall({ StatusCallback: statusUrl }));
    expect(await phone.busy(busy.sid)).toMatchObject({ status: 'busy' });
    await receiver.waitFor((r) => r.params.CallStatus === 'busy');
  });

  it("stops ringing after the request's Timeout", async () => {
    const { sid } = await json<{ sid: string }>(placeCall({ Timeout: '1' }));
    await expect(
      phone.waitForCall((c) => c.sid === sid && c.status === 'no-answer', 3000),
    ).resolves.toMatchObject({
      duration: 0,
    });
  });

  it('ends the call with an application error when the TwiML URL fails', async () => {
    receiver.routes.set('/voice', () => ({ status: 500, body: 'boom' }));
    const { sid } = await json<{ sid: string }>(placeCall());
    const call = await phone.answer(sid);
    expect(call.status).toBe('completed');
    expect(call.error).toMatch(/^11200 /);
  });

  it('lists calls filtered by To and validates like Twilio', async () => {
    await placeCall();
    await placeCall({ To: '+14155550111' });
    const page = await json<{ calls: { to: string }[] }>(
      rest(`/Calls.json?To=${encodeURIComponent(PERSON)}`),
    );
    expect(page.calls.map((c) => c.to)).toEqual([PERSON]);
    for (const [form, code] of [
      [{ To: '' }, 21201],
      [{ From: '' }, 21213],
      [{ To: '12' }, 21211],
      [{ From: '+14155550199' }, 21210],
      [{ Url: '' }, 21205],
    ] as const) {
      expect(await json(placeCall(form))).toMatchObject({ code, status: 400 });
    }
  });
});

describe('inbound SMS and opt-out', () => {
  it('posts a signed inbound webhook; STOP opts out with one confirmation and 21610; START opts back in', async () => {
    receiver.routes.set('/inbound-sms', (request) => ({
      body:
        request.params.Body === 'hello' ? '<Response><Message>Got it</Message></Response>' : '<Response/>',
    }));
    const inbound = await phone.reply(PERSON, ' stop ');
    const [webhook] = receiver.at('/inbound-sms');
    expectSigned(webhook!);
    expect(webhook!.url).toBe(`${receiver.url}/inbound-sms?source=twilio`);
    expect(webhook!.params).toMatchObject({
      AccountSid: ACCOUNT_SID,
      ApiVersion: '2010-04-01',
      Body: ' stop ',
      From: PERSON,
      To: VIGIL_NUMBER,
      MessageSid: inbound.sid,
      SmsSid: inbound.sid,
      NumMedia: '0',
    });
    expect(inbound).toMatchObject({ direction: 'inbound', status: 'received', webhookStatus: 200 });
    const confirmations = () =>
      phone.messages({ to: PERSON }).filter((m) => m.direction === 'outbound-reply');
    expect(confirmations().map((m) => m.body)).toEqual([
      'You have successfully been unsubscribed. You will not receive any more messages from this number. Reply START to resubscribe.',
    ]);
    const refused = await sendSms();
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual(
      twilioError(21610, 'Attempt to send to unsubscribed recipient', 400),
    );

    await phone.reply(PERSON, 'Start');
    expect(confirmations()[0]!.body).toMatch(/^You have successfully been resubscribed/);
    expect((await sendSms()).status).toBe(201);

    await phone.reply(PERSON, 'hello');
    expect(confirmations()[0]).toMatchObject({ body: 'Got it', from: VIGIL_NUMBER });
    expect(phone.messages({ from: PERSON }).map((m) => m.body)).toEqual(['hello', 'Start', ' stop ']);
  });

  it('sends no TwiML reply to a number that has opted out', async () => {
    receiver.routes.set('/inbound-sms', () => ({
      body: '<Response><Message>Sorry to see you go</Message></Response>',
    }));
    await phone.reply(PERSON, 'QUIT');
    expect(phone.messages({ to: PERSON }).map((m) => m.body)).toEqual([
      expect.stringMatching(/unsubscribed/),
    ]);
  });
});

describe('faults', () => {
  it('answers the next POSTs with a Twilio error, then recovers; requests counts every attempt', async () => {
    phone.addFault({ resource: 'Messages', status: 500 });
    phone.addFault({ resource: 'Calls', status: 429, count: 2 });
    const failed = await sendSms();
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual(twilioError(20500, 'Internal Server Error', 500));
    expect((await sendSms()).status).toBe(201);
    expect(await json(placeCall())).toEqual(twilioError(20429, 'Too Many Requests', 429));
    expect((await placeCall()).status).toBe(429);
    expect((await placeCall()).status).toBe(201);
    expect(phone.requests).toEqual({ Messages: 2, Calls: 3 });
    expect(phone.messages()).toHaveLength(1);
    expect(phone.calls()).toHaveLength(1);
  });

  it("stage 'after' creates the resource first and only then holds and fails the answer", async () => {
    phone.addFault({ resource: 'Messages', status: 503, holdMs: 300, stage: 'after' });
    let answered = false;
    const pending = sendSms().then((response) => {
      answered = true;
      return response;
    });
    const message = await phone.waitForMessage((m) => m.to === PERSON, 2000);
    expect(message.direction).toBe('outbound-api');
    expect(answered).toBe(false);
    const response = await pending;
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: 20503 });
    expect(phone.messages()).toHaveLength(1);
  });

  it('holds without failing when the fault has no status', async () => {
    phone.addFault({ resource: 'Messages', holdMs: 150 });
    const started = Date.now();
    expect((await sendSms()).status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });
});

describe('sandbox JSON API', () => {
  const api = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${origin}/sandbox/api/twilio${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: init.body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  it('drives a call by SID, with 404 for an unknown call and 409 for an action that does not fit', async () => {
    receiver.routes.set('/voice', () => ({
      body: '<Response><Gather numDigits="1" action="/gather"><Say>Press 1</Say></Gather></Response>',
    }));
    const { sid } = await json<{ sid: string }>(placeCall());
    const unknown = await api(`/calls/CA${'0'.repeat(32)}/answer`, { body: {} });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'NOT_FOUND' });

    expect(await json(api(`/calls/${sid}/answer`, { body: {} }))).toMatchObject({
      data: { sid, status: 'in-progress', gathering: true, spoken: [{ text: 'Press 1', language: 'en-US' }] },
    });
    const twice = await api(`/calls/${sid}/answer`, { body: {} });
    expect(twice.status).toBe(409);
    expect(await twice.json()).toMatchObject({ code: 'CONFLICT' });
    expect((await api(`/calls/${sid}/press`, { body: { digits: 'x' } })).status).toBe(400);
    expect(await json(api(`/calls/${sid}/press`, { body: { digits: '1' } }))).toMatchObject({
      data: { status: 'completed', digits: ['1'] },
    });
    expect(receiver.at('/gather')[0]!.params.Digits).toBe('1');

    const list = await json<{ data: { list: { sid: string }[] } }>(
      api(`/calls?to=${encodeURIComponent(PERSON)}`),
    );
    expect(list.data.list.map((c) => c.sid)).toEqual([sid]);
  });

  it('texts Vigil as a person, lists messages and sets faults', async () => {
    expect(await json(api('/inbound', { body: { from: PERSON, body: 'hi' } }))).toMatchObject({
      data: { direction: 'inbound', from: PERSON, body: 'hi' },
    });
    expect((await api('/inbound', { body: { from: 'nobody', body: 'hi' } })).status).toBe(400);
    const list = await json<{ data: { list: { body: string }[] } }>(
      api(`/messages?from=${encodeURIComponent(PERSON)}`),
    );
    expect(list.data.list.map((m) => m.body)).toEqual(['hi']);

    expect((await api('/faults', { body: { resource: 'Messages', status: 503 } })).status).toBe(200);
    expect((await api('/faults', { body: { resource: 'Nope' } })).status).toBe(400);
    expect((await sendSms()).status).toBe(503);
    await api('/faults', { body: { resource: 'Messages', status: 503 } });
    await api('/faults', { method: 'DELETE' });
    expect((await sendSms()).status).toBe(201);
    expect((await api('/unreachable', { body: { number: PERSON } })).status).toBe(200);
    await sendSms();
    await phone.waitForMessage((m) => m.status === 'undelivered');
    expect(await json(api(''))).toMatchObject({
      data: { accountSid: ACCOUNT_SID, phoneNumber: VIGIL_NUMBER, requests: { Messages: 3, Calls: 0 } },
    });
  });
});

describe('phone page', () => {
  it('shows texts escaped, a reply form addressed to the last recipient, and the buttons of a ringing call', async () => {
    await sendSms({ Body: '<script>alert(1)</script>' });
    const { sid } = await json<{ sid: string }>(placeCall());
    await phone.waitForCall((c) => c.sid === sid && c.status === 'ringing');
    const html = await fetch(`${origin}/sandbox/phone`).then((r) => r.text());
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain(`<label for="reply-from">Reply from</label>`);
    expect(html).toMatch(new RegExp(`id="reply-from"[^>]*value="\\${PERSON}"`));
    expect(html).toContain('>Send reply</button>');
    for (const name of ['Answer', 'Leave unanswered', 'Busy']) expect(html).toContain(`>${name}</button>`);
    expect(await fetch(`${origin}/sandbox`).then((r) => r.text())).toContain('href="/sandbox/phone"');
  });

  it('answers a call and sends a reply through plain form posts that redirect back', async () => {
    receiver.routes.set('/voice', () => ({
      body: '<Response><Gather numDigits="1" action="/gather"><Say language="it-IT">Premi 1</Say></Gather></Response>',
    }));
    const { sid } = await json<{ sid: string }>(placeCall());
    const post = (path: string, form: Record<string, string>) =>
      fetch(`${origin}/sandbox/phone${path}`, {
        method: 'POST',
        body: new URLSearchParams(form),
        redirect: 'manual',
      });

    const answered = await post(`/calls/${sid}/answer`, {});
    expect(answered.status).toBe(303);
    expect(answered.headers.get('location')).toBe('/sandbox/phone');
    const html = await fetch(`${origin}/sandbox/phone`).then((r) => r.text());
    expect(html).toContain('<q lang="it-IT">Premi 1</q>');
    expect(html).toContain('aria-label="Press 1"');
    expect(html).toContain('>Hang up</button>');

    expect((await post(`/calls/${sid}/press`, { digits: '1' })).status).toBe(303);
    expect(phone.call(sid)?.status).toBe('completed');
    const late = await post(`/calls/${sid}/hangup`, {});
    expect(late.headers.get('location')).toMatch(/^\/sandbox\/phone\?notice=/);

    expect((await post('/reply', { from: PERSON, body: 'STOP' })).status).toBe(303);
    expect(phone.isOptedOut(PERSON)).toBe(true);
  });
});

import { twilioSignature as sandboxSignature, type Sandbox } from '@vigil/sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_TWILIO } from '../config.ts';
import { startSandboxServer, type SandboxServer } from '../test/sandbox-server.ts';
import { alertCallTwiml } from './alert-phone.ts';
import {
  createTwilioClient,
  isValidTwilioSignature,
  TwilioError,
  twilioSignature,
  type PhoneSender,
} from './twilio.ts';

const FROM = '+15005550006';
const TO = '+442079460123';

/** The adapter against the sandbox's Twilio: the requests it makes and how it reads Twilio's answers. */
describe('the Twilio adapter', () => {
  let sandboxServer: SandboxServer;
  let sandbox: Sandbox;
  let twilio: PhoneSender;
  let origin: string;
  let apiUrl: string;
  const callbacks: { url: string; params: Record<string, string>; signature: string | undefined }[] = [];

  beforeAll(async () => {
    // Stands in for Vigil's webhooks: records what the sandbox posts, as Twilio would post it.
    sandboxServer = await startSandboxServer(FROM, async (scope) => {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string' },
        (_r, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
      );
      scope.post('/hooks/*', async (request, reply) => {
        callbacks.push({
          url: `${origin}${request.url}`,
          params: request.body as Record<string, string>,
          signature: request.headers['x-twilio-signature'] as string | undefined,
        });
        return reply.code(204).send();
      });
    });
    ({ sandbox, url: origin, twilioApiUrl: apiUrl } = sandboxServer);
    twilio = createTwilioClient({ apiUrl, ...SANDBOX_TWILIO, fromNumber: FROM });
  });
  afterAll(async () => {
    await sandboxServer?.close();
  });
  beforeEach(() => {
    sandbox.phone.clearFaults();
    callbacks.length = 0;
  });

  it('sends an SMS from Vigil’s number; the signed status callbacks check out', async () => {
    const sent = await twilio.sendSms({
      to: TO,
      body: 'Shop is down',
      statusCallback: `${origin}/hooks/sms?delivery=1`,
    });
    expect(sent).toMatchObject({ status: 'queued', to: TO });
    expect(sent.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(Math.abs(sent.createdAt.getTime() - Date.now())).toBeLessThan(5000);
    expect(sandbox.phone.message(sent.sid)).toMatchObject({ from: FROM, to: TO, body: 'Shop is down' });
    await expect.poll(() => callbacks.map((c) => c.params.MessageStatus)).toEqual(['sent', 'delivered']);
    for (const callback of callbacks) {
      expect(callback.url).toMatch(/\/hooks\/sms\?delivery=1$/);
      expect(
        isValidTwilioSignature(SANDBOX_TWILIO.authToken, callback.url, callback.params, callback.signature),
      ).toBe(true);
      expect(isValidTwilioSignature('another-token', callback.url, callback.params, callback.signature)).toBe(
        false,
      );
      expect(
        isValidTwilioSignature(
          SANDBOX_TWILIO.authToken,
          callback.url,
          { ...callback.params, MessageStatus: 'failed' },
          callback.signature,
        ),
      ).toBe(false);
    }
  });

  it('signs exactly as the sandbox (and Twilio) does', () => {
    const params = { CallSid: 'CA123', Digits: '1', From: '+14155550100', To: FROM };
    const url = 'https://vigil.example.com/webhooks/twilio/gather?delivery=abc';
    expect(twilioSignature('token', url, params)).toBe(sandboxSignature('token', url, params));
    expect(isValidTwilioSignature('token', url, params, undefined)).toBe(false);
    expect(isValidTwilioSignature('token', url, params, 'short')).toBe(false);
  });

  it('places a call that runs its TwiML when answered, reading the host instead of the address', async () => {
    const started = await twilio.startCall({
      to: TO,
      twiml: alertCallTwiml({
        event: 'opened',
        monitorName: 'Shop & Co',
        summary: 'HTTP 503 from https://www.shop.example/collections/sale?page=2.',
        languageCode: 'en-GB',
        gatherUrl: 'http://127.0.0.1:9/never',
      }),
      timeoutSeconds: 20,
    });
    expect(started.sid).toMatch(/^CA[0-9a-f]{32}$/);
    const answered = await sandbox.phone.answer(started.sid);
    expect(answered.spoken[0]).toMatchObject({
      text: 'Vigil alert. Shop & Co has a problem: HTTP 503 from shop.example.',
      language: 'en-GB',
    });
    expect(answered.gathering).toBe(true);
  });

  it('tells transient refusals (429, 5xx, unreachable) from final ones, keeping Twilio’s code', async () => {
    sandbox.phone.addFault({ resource: 'Messages', status: 429 });
    const busy = await twilio.sendSms({ to: TO, body: 'x' }).catch((error: unknown) => error);
    expect(busy).toBeInstanceOf(TwilioError);
    expect(busy).toMatchObject({ status: 429, code: 20429, transient: true });

    sandbox.phone.addFault({ resource: 'Calls', status: 503 });
    expect(await twilio.startCall({ to: TO, twiml: '<Response/>' }).catch((e: unknown) => e)).toMatchObject({
      status: 503,
      transient: true,
    });

    const invalid = await twilio.sendSms({ to: '+1555', body: 'x' }).catch((error: unknown) => error);
    expect(invalid).toMatchObject({ status: 400, code: 21211, transient: false });
    expect((invalid as Error).message).toMatch(/^Twilio refused \(400, error 21211\): /);

    const wrongToken = createTwilioClient({
      apiUrl,
      accountSid: SANDBOX_TWILIO.accountSid,
      authToken: 'wrong',
      fromNumber: FROM,
    });
    expect(await wrongToken.sendSms({ to: TO, body: 'x' }).catch((e: unknown) => e)).toMatchObject({
      status: 401,
      code: 20003,
      transient: false,
    });

    const nowhere = createTwilioClient({ apiUrl: 'http://127.0.0.1:9', ...SANDBOX_TWILIO, fromNumber: FROM });
    expect(await nowhere.sendSms({ to: TO, body: 'x' }).catch((e: unknown) => e)).toMatchObject({
      status: 0,
      transient: true,
    });
  });

  it('finds what was sent to a number since a moment, to recover a dead worker’s send', async () => {
    const to = '+33612345678';
    const before = new Date(Date.now() - 1000);
    const first = await twilio.startCall({ to, twiml: '<Response/>' });
    const second = await twilio.startCall({ to, twiml: '<Response/>' });
    await twilio.sendSms({ to, body: 'not a call' });
    const found = await twilio.recent('call', to, before);
    expect(found.map((call) => call.sid)).toEqual([second.sid, first.sid]);
    expect(await twilio.recent('call', to, new Date(Date.now() + 60_000))).toEqual([]);
    expect((await twilio.recent('sms', to, before)).map((m) => m.to)).toEqual([to]);
  });
});

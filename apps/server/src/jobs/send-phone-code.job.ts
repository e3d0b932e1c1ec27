import { z } from 'zod';
import { codeCallTwiml, codeSms } from '../notify/alert-phone.ts';
import { TwilioError } from '../notify/twilio.ts';
import { defineJob } from './job.ts';

export const sendPhoneCodePayload = z.object({
  channel: z.enum(['sms', 'call']),
  to: z.string().regex(/^\+\d{7,15}$/),
  code: z.string().regex(/^\d{6}$/),
  languageCode: z.string(),
});
export type SendPhoneCodePayload = z.infer<typeof sendPhoneCodePayload>;

/**
 * Texts a verification code, or calls and reads it out. Twilio's 429, 5xx and timeouts are retried for a few
 * minutes (a code is worth little later); any other refusal is logged and dropped: the person asks again.
 */
export const sendPhoneCodeJob = defineJob<SendPhoneCodePayload>({
  name: 'send-phone-code',
  payload: sendPhoneCodePayload,
  retry: { retryLimit: 4, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 },
  concurrency: 4,
  async handle(payload, { phone, log }) {
    if (!phone) {
      log.warn({ to: payload.to }, 'a phone code was queued but SMS and calls are not set up');
      return;
    }
    try {
      if (payload.channel === 'sms') {
        await phone.sendSms({ to: payload.to, body: codeSms(payload.code, payload.languageCode) });
      } else {
        await phone.startCall({ to: payload.to, twiml: codeCallTwiml(payload.code, payload.languageCode) });
      }
    } catch (error) {
      if (error instanceof TwilioError && !error.transient) {
        log.warn({ err: error, to: payload.to }, 'Twilio refused a verification code; not retried');
        return;
      }
      throw error;
    }
  },
});

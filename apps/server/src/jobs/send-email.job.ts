import { z } from 'zod';
import { stableMessageId } from '../notify/email.ts';
import { defineJob } from './job.ts';

export const sendEmailPayload = z.object({
  to: z.array(z.email()).min(1),
  subject: z.string().min(1),
  text: z.string(),
  html: z.string(),
});
export type SendEmailPayload = z.infer<typeof sendEmailPayload>;

/**
 * Sends one email over SMTP; a refused or unreachable server is retried with backoff for about twenty minutes.
 * Every try of one job carries the same Message-ID (the job's id), so a copy sent again after a crash folds.
 */
export const sendEmailJob = defineJob<SendEmailPayload>({
  name: 'send-email',
  payload: sendEmailPayload,
  retry: { retryLimit: 8, retryDelay: 5, retryBackoff: true, expireInSeconds: 120 },
  concurrency: 4,
  async handle(payload, { email, publicUrl }, attempt) {
    await email.send({ ...payload, messageId: stableMessageId('email', attempt.id, publicUrl) });
  },
});

import { z } from 'zod';
import { isTransientEmailError, stableMessageId } from '../notify/email.ts';
import { accountNoticeEmail } from '../notify/account-notice-email.ts';
import type { JobQueue } from './job-queue.ts';
import { defineJob } from './job.ts';

/**
 * Sends one account notice (modules/billing/notice.repository.ts) and marks it sent. A server that says "try
 * later" is retried with backoff for about twenty minutes; a refusal (5xx) is logged and left to the hourly
 * re-send of the plan-limits sweep.
 */
export const sendAccountNoticeJob = defineJob<{ noticeId: string }>({
  name: 'send-account-notice',
  payload: z.object({ noticeId: z.uuid() }),
  retry: { retryLimit: 8, retryDelay: 5, retryBackoff: true, expireInSeconds: 120 },
  concurrency: 2,
  async handle({ noticeId }, { store, email, clock, publicUrl, log }) {
    const notice = await store.notices.find(noticeId);
    if (!notice || notice.sentAt) return;
    try {
      await email.send({
        ...accountNoticeEmail(notice, publicUrl),
        messageId: stableMessageId('notice', noticeId, publicUrl),
      });
    } catch (error) {
      if (isTransientEmailError(error)) throw error;
      log.warn({ err: error, noticeId }, 'the account notice was refused by the mail server');
      return;
    }
    await store.notices.markSent(noticeId, clock.now());
  },
});

/**
 * Hands notices written in a transaction that has committed to the job. The job's id is the notice's, so a
 * notice queued again while its job is kept (waiting, running, retrying) is not sent twice.
 */
export async function queueNotices(queue: JobQueue, noticeIds: (string | null | undefined)[]): Promise<void> {
  for (const noticeId of noticeIds) {
    if (noticeId) await queue.send(sendAccountNoticeJob, { noticeId }, { id: noticeId });
  }
}

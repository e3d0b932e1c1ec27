import { describe, expect, it } from 'vitest';
import type { EmailMessage } from '../notify/email.ts';
import type { WorkerDeps } from './job.ts';
import { sendEmailJob } from './send-email.job.ts';

describe('sendEmailJob', () => {
  it('sends every try of one job with the same Message-ID, and another job with its own', async () => {
    const sent: EmailMessage[] = [];
    const deps = {
      email: {
        send: async (message: EmailMessage) => {
          sent.push(message);
          return { messageId: message.messageId ?? '', response: '250 OK' };
        },
        close: () => undefined,
      },
      publicUrl: 'https://vigil.example.com',
    } as unknown as WorkerDeps;
    const payload = { to: ['a@example.com'], subject: 'Your code', text: '123456', html: '<p>123456</p>' };
    await sendEmailJob.handle(payload, deps, {
      id: 'job-1',
      retryCount: 0,
      retryLimit: 8,
      expireInSeconds: 120,
    });
    await sendEmailJob.handle(payload, deps, {
      id: 'job-1',
      retryCount: 1,
      retryLimit: 8,
      expireInSeconds: 120,
    });
    await sendEmailJob.handle(payload, deps, {
      id: 'job-2',
      retryCount: 0,
      retryLimit: 8,
      expireInSeconds: 120,
    });
    expect(sent.map((message) => message.messageId)).toEqual([
      '<email-job-1@vigil.example.com>',
      '<email-job-1@vigil.example.com>',
      '<email-job-2@vigil.example.com>',
    ]);
  });
});

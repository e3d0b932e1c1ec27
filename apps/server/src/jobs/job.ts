import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { EmailSender } from '../notify/email.ts';

/** What job handlers may use. */
export interface WorkerDeps {
  email: EmailSender;
  log: FastifyBaseLogger;
}

export interface RetryPolicy {
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  expireInSeconds: number;
}

/** One background job: its queue name, the payload it accepts, how it retries, and what it does. */
export interface JobDefinition<P> {
  name: string;
  payload: z.ZodType<P>;
  retry: RetryPolicy;
  /** Jobs of this kind one process runs at the same time. */
  concurrency: number;
  handle(payload: P, deps: WorkerDeps): Promise<void>;
}

export function defineJob<P>(job: JobDefinition<P>): JobDefinition<P> {
  return job;
}

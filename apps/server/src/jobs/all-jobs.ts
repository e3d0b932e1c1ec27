import type { JobDefinition } from './job.ts';
import { sendEmailJob } from './send-email.job.ts';

/** Every job the workers run; a queue is created for each at start. */
export const ALL_JOBS: JobDefinition<unknown>[] = [sendEmailJob];

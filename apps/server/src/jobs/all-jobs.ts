import { deliverAlertJob } from './deliver-alert.job.ts';
import type { JobDefinition } from './job.ts';
import { rollUpResultsJob } from './roll-up-results.job.ts';
import { sendEmailJob } from './send-email.job.ts';
import { sendPhoneCodeJob } from './send-phone-code.job.ts';

/** Every job the workers run; a queue is created for each at start. */
export const ALL_JOBS: JobDefinition<unknown>[] = [
  sendEmailJob,
  sendPhoneCodeJob,
  deliverAlertJob,
  rollUpResultsJob,
] as JobDefinition<unknown>[];

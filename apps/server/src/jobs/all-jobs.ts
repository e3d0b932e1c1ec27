import { applyPlanLimitsJob } from './apply-plan-limits.job.ts';
import { applyStripeEventJob, sweepBillingJob } from './apply-stripe-event.job.ts';
import { deliverAlertJob } from './deliver-alert.job.ts';
import type { JobDefinition } from './job.ts';
import { rollUpResultsJob } from './roll-up-results.job.ts';
import { sendAccountNoticeJob } from './send-account-notice.job.ts';
import { sendEmailJob } from './send-email.job.ts';
import { sendPhoneCodeJob } from './send-phone-code.job.ts';
import { vacuumMonitorsJob } from './vacuum-monitors.job.ts';

/** Every job the workers run; a queue is created for each at start. */
export const ALL_JOBS: JobDefinition<unknown>[] = [
  sendEmailJob,
  sendPhoneCodeJob,
  deliverAlertJob,
  rollUpResultsJob,
  applyStripeEventJob,
  sweepBillingJob,
  applyPlanLimitsJob,
  sendAccountNoticeJob,
  vacuumMonitorsJob,
] as JobDefinition<unknown>[];

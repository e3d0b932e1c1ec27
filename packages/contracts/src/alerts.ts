import { z } from 'zod';
import { envelope, pageOf, pageQuery } from './envelope.ts';

export const INCIDENT_STATES = ['open', 'acknowledged', 'resolved'] as const;
export type IncidentState = (typeof INCIDENT_STATES)[number];

/**
 * pending: waiting to go out (or to be tried again); sending: with the provider now; sent: the provider took
 * it (an email, an SMS not yet confirmed, a call ringing); delivered: the phone confirmed the SMS or answered
 * the call (without, so far, a key press that acknowledges); acknowledged: the call was answered and 1 pressed;
 * unanswered: every try of the call went unanswered; failed: refused for good; skipped: not sent, `lastError`
 * says why (unverified, STOP, quota, paused, already acknowledged).
 */
export const DELIVERY_STATUSES = [
  'pending',
  'sending',
  'sent',
  'delivered',
  'acknowledged',
  'unanswered',
  'failed',
  'skipped',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const RESOLVED_BY = ['check', 'person', 'pause'] as const;
export type ResolvedBy = (typeof RESOLVED_BY)[number];
export const RESOLUTION_NOTE_MAX = 500;

export const delivery = z.object({
  /** 'opened', 'repeat-N' or 'resolved'. */
  event: z.string(),
  channel: z.enum(['email', 'sms', 'call']),
  recipient: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  sentAt: z.string().nullable(),
  /** Set when this delivery stands in for one that could not reach the person (a call not answered, an SMS not delivered). */
  fallbackFor: z.enum(['call', 'sms']).nullable(),
});
export type Delivery = z.infer<typeof delivery>;

export const alert = z.object({
  incidentId: z.string(),
  monitorId: z.string(),
  monitorName: z.string(),
  conditionKey: z.string(),
  conditionLabel: z.string(),
  summary: z.string(),
  state: z.enum(INCIDENT_STATES),
  openedAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  /** How it ended: a passing check, a person (with `resolutionNote`), or the monitor being paused. */
  resolvedBy: z.enum(RESOLVED_BY).nullable(),
  resolutionNote: z.string().nullable(),
  alertCount: z.number().int(),
  deliveries: z.array(delivery),
});
export type Alert = z.infer<typeof alert>;

export const alertListQuery = pageQuery.extend({
  monitorId: z.uuid({ error: 'That monitor does not exist.' }).optional(),
  state: z.enum(INCIDENT_STATES).optional(),
});
export const alertListResponse = envelope(pageOf(alert));
export const acknowledgeBody = z.object({ incidentId: z.uuid({ error: 'That alert does not exist.' }) });
export const resolveBody = acknowledgeBody.extend({
  note: z
    .string()
    .trim()
    .max(RESOLUTION_NOTE_MAX, { error: `Keep the note under ${RESOLUTION_NOTE_MAX} characters.` })
    .optional(),
});
export type ResolveBody = z.infer<typeof resolveBody>;
export const alertResponse = envelope(alert);

/**
 * Why the acknowledge link of an alert email did not acknowledge: sent as `/app/alerts?ackError=<reason>`.
 * invalid: the link is damaged; expired: older than 7 days; resolved: the alert was already resolved;
 * not_found: the alert or its monitor was deleted; failed: Vigil could not do it just now (try again).
 */
export const ACK_LINK_ERRORS = ['invalid', 'expired', 'resolved', 'not_found', 'failed'] as const;
export type AckLinkError = (typeof ACK_LINK_ERRORS)[number];

import { z } from 'zod';
import { envelope, pageOf, pageQuery } from './envelope.ts';
import { DELIVERY_STATUSES, INCIDENT_STATES, RESOLUTION_NOTE_MAX, RESOLVED_BY } from './alert-values.ts';

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
 * One moment of an incident, in time order: `at` is an ISO time. A failed check of the incident's condition
 * (before it opened, confirming it, and while it lasted); failures beyond the first and last
 * `TIMELINE_FAILURES_SHOWN` are one `more-failures` entry; each alert delivery per channel and recipient;
 * the acknowledgement; the end.
 */
export const timelineEvent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('check-failed'),
    at: z.string(),
    /** The HTTP status the check saw, if any answer came. */
    statusCode: z.number().int().nullable(),
    /** What the check said (the first failing condition's words, or why it could not check). */
    error: z.string().nullable(),
  }),
  z.object({
    kind: z.literal('more-failures'),
    /** The failures not listed lie between the failure listed before them (`at`) and the one after (`until`). */
    at: z.string(),
    until: z.string(),
    count: z.number().int(),
  }),
  z.object({ kind: z.literal('opened'), at: z.string(), summary: z.string() }),
  delivery.extend({
    kind: z.literal('delivery'),
    /** When it was sent, else when it was given up (failed, skipped, unanswered), else when it was queued. */
    at: z.string(),
    /** Earlier tries that did not get through, with why (the last one's reason is `lastError`). */
    failedTries: z.array(z.object({ at: z.string(), error: z.string() })),
  }),
  z.object({
    kind: z.literal('acknowledged'),
    at: z.string(),
    /** The number whose call was answered with 1 pressed; null when acknowledged in the app or from the email's link. */
    byCallTo: z.string().nullable(),
  }),
  z.object({
    kind: z.literal('resolved'),
    at: z.string(),
    by: z.enum(RESOLVED_BY),
    /** The person's note when resolved by hand. */
    note: z.string().nullable(),
  }),
]);
export type TimelineEvent = z.infer<typeof timelineEvent>;
export type TimelineEventKind = TimelineEvent['kind'];

export const incidentTimeline = z.object({
  incidentId: z.string(),
  state: z.enum(INCIDENT_STATES),
  events: z.array(timelineEvent),
  /**
   * Raw check results are kept for a limited time: failures before this moment are no longer known. Null when
   * everything the incident spans is still kept.
   */
  checksKeptFrom: z.string().nullable(),
});
export type IncidentTimeline = z.infer<typeof incidentTimeline>;
export const incidentTimelineQuery = z.object({
  incidentId: z.uuid({ error: 'That alert does not exist.' }),
});
export const incidentTimelineResponse = envelope(incidentTimeline);

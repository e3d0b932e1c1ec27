/**
 * The alerts contract's plain values, apart from its zod schemas (alerts.ts): the web app's first pages import
 * these without loading zod.
 */

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

/** How many failed checks the timeline shows from each end of an incident's failures; the rest are counted. */
export const TIMELINE_FAILURES_SHOWN = 5;

/**
 * Why the acknowledge link of an alert email did not acknowledge: sent as `/app/alerts?ackError=<reason>`.
 * invalid: the link is damaged; expired: older than 7 days; resolved: the alert was already resolved;
 * not_found: the alert or its monitor was deleted; failed: Vigil could not do it just now (try again).
 */
export const ACK_LINK_ERRORS = ['invalid', 'expired', 'resolved', 'not_found', 'failed'] as const;
export type AckLinkError = (typeof ACK_LINK_ERRORS)[number];

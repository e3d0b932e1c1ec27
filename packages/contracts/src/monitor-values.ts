/**
 * The monitors contract's plain values, apart from its zod schemas (monitors.ts): the web app's first pages
 * import these without loading zod.
 */

/** The four services of DESIGN.md §1. */
export const SERVICES = ['website', 'shopify', 'google_ads', 'facebook_ads'] as const;
export type ServiceId = (typeof SERVICES)[number];

/**
 * The consent shown beside the call and SMS checkboxes; ticking it is the `isAgree` the spec requires. The
 * server keeps the text with the monitor's settings so what a person agreed to can be shown later.
 */
export const PHONE_CONSENT_TEXT =
  'I agree to receive automated alert calls and text messages from Vigil at this number about this monitor. Message and data rates may apply. Reply STOP to stop texts, START to resume.';

export const MONITOR_STATUSES = ['pending', 'up', 'confirming', 'down', 'paused'] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

export const STATS_RANGES = ['24h', '7d', '30d'] as const;

export const MAX_RECENT_CHECKS = 100;

export const CONTACT_STATES = [
  /** Alerts go out. */
  'ok',
  /** The address or number was never verified. */
  'unverified',
  /** The number replied STOP: no texts until it replies START. */
  'opted_out',
  /** The month's quota of this channel is used up: alerts fall back to email. */
  'quota_exhausted',
  /** The plan does not include this channel. */
  'not_in_plan',
  /** This server has no SMS/call provider configured. */
  'not_configured',
] as const;
export type ContactState = (typeof CONTACT_STATES)[number];

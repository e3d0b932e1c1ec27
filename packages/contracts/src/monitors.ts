import { z } from 'zod';
import { isAlertSettingsValid } from './alert-settings.ts';
import { email } from './auth.ts';
import { envelope, pageOf, pageQuery } from './envelope.ts';
import { isSupportedPhone, PHONE_COUNTRIES, PHONE_PLANS } from './phone.ts';
import { connection } from './connections.ts';
import { shopifyConditions, shopifyTarget, shopifyTargetInput } from './shopify.ts';
import {
  googleAdsConditions,
  googleAdsTarget,
  googleAdsTargetInput,
  metaAdsConditions,
  metaAdsTarget,
  metaAdsTargetInput,
} from './ads.ts';
import {
  SERVICES,
  MONITOR_STATUSES,
  STATS_RANGES,
  MAX_RECENT_CHECKS,
  CONTACT_STATES,
} from './monitor-values.ts';

/** Alert languages: the spec's language items; several codes may share a language (en-US, en-GB). */
export const language = z.object({ languageCode: z.string(), language: z.string() });
export type Language = z.infer<typeof language>;

export const conditionParam = z.object({
  key: z.string(),
  label: z.string(),
  type: z.enum(['number', 'text']),
  unit: z.string().optional(),
  default: z.union([z.number(), z.string()]),
  min: z.number().optional(),
  max: z.number().optional(),
  /** For a text param that takes one of a few values (the keyword check's mode): those values. */
  options: z.array(z.string()).optional(),
});

export const conditionDefinition = z.object({
  key: z.string(),
  label: z.string(),
  description: z.string(),
  enabledByDefault: z.boolean(),
  params: z.array(conditionParam),
});
export type ConditionDefinition = z.infer<typeof conditionDefinition>;

export const serviceDefinition = z.object({
  service: z.enum(SERVICES),
  name: z.string(),
  description: z.string(),
  /** False while the service's integration is not built; the catalogue still lists it. */
  available: z.boolean(),
  unavailableReason: z.string().nullable(),
  targetLabel: z.string(),
  conditions: z.array(conditionDefinition),
});
export type ServiceDefinition = z.infer<typeof serviceDefinition>;

export const monitorServiceResponse = envelope(
  z.object({
    list: z.array(serviceDefinition),
    languages: z.array(language),
    /** Check interval bounds in seconds; the plan's shortest interval applies on top. */
    intervalSeconds: z.object({ min: z.number().int(), max: z.number().int(), default: z.number().int() }),
    repeatIntervalMinutes: z.object({
      min: z.number().int(),
      max: z.number().int(),
      default: z.number().int(),
    }),
    confirmations: z.object({ min: z.number().int(), max: z.number().int(), default: z.number().int() }),
  }),
);

// ---- Website conditions: each on/off with its thresholds. ----
const onOff = z.object({ enabled: z.boolean() });
export const websiteConditions = z
  .object({
    http_status: onOff,
    timeout: onOff.extend({ timeoutMs: z.number().int().min(1000).max(30_000) }),
    keyword: onOff.extend({
      keyword: z.string().trim().max(200),
      mode: z.enum(['missing', 'present']),
    }),
    slow_response: onOff.extend({ thresholdMs: z.number().int().min(100).max(30_000) }),
    tls_expiry: onOff.extend({ days: z.number().int().min(1).max(90) }),
    password_page: onOff,
  })
  .refine((c) => !c.keyword.enabled || c.keyword.keyword.length > 0, {
    message: 'Enter the keyword to look for, or turn the keyword check off.',
    path: ['keyword', 'keyword'],
  });
export type WebsiteConditions = z.infer<typeof websiteConditions>;
export type WebsiteConditionKey = keyof WebsiteConditions;

export const websiteTarget = z.object({
  url: z
    .string({ error: 'Enter the address of the page to watch.' })
    .trim()
    .max(2048, 'An address has at most 2048 characters.')
    .pipe(
      z.url({ protocol: /^https?$/, error: 'Enter a full web address starting with http:// or https://.' }),
    ),
});

// ---- Alert channels: the spec's three groups. Call and SMS carry a phone number (E.164). ----
export const emailChannel = z.object({
  checked: z.boolean(),
  name: z.string().trim().max(100).default(''),
  isAgree: z.boolean().default(false),
  email: z.string().trim().max(254).default(''),
});
const PHONE_COUNTRY_NAMES = PHONE_COUNTRIES.map((country) => PHONE_PLANS[country].name).join(', ');
export const PHONE_NUMBER_MESSAGE = `Enter a phone number in international form (+ and country code) from one of: ${PHONE_COUNTRY_NAMES}.`;

/** A phone number stored in E.164, from one of the spec's nine countries. */
export const phoneNumber = z
  .string({ error: PHONE_NUMBER_MESSAGE })
  .trim()
  .refine(isSupportedPhone, PHONE_NUMBER_MESSAGE);

export const phoneChannel = z.object({
  checked: z.boolean(),
  name: z.string().trim().max(100).default(''),
  isAgree: z.boolean().default(false),
  phone: z
    .string()
    .trim()
    .max(20)
    .default('')
    .refine((value) => value === '' || isSupportedPhone(value), PHONE_NUMBER_MESSAGE),
});
const unchecked = { checked: false, name: '', isAgree: false };

const monitorSettings = {
  name: z.string({ error: 'Give the monitor a name.' }).trim().min(1, 'Give the monitor a name.').max(100),
  intervalSeconds: z.number({ error: 'Choose how often to check.' }).int(),
  repeatIntervalMinutes: z.number().int().min(0).max(1440),
  confirmations: z.number().int().min(1).max(10),
  languageCode: z.string().min(2).max(10),
  callSettings: phoneChannel.default({ ...unchecked, phone: '' }),
  smsSettings: phoneChannel.default({ ...unchecked, phone: '' }),
  emailSettings: emailChannel.default({ ...unchecked, email: '' }),
};

/** A monitor's settings, a union by `service`: each service brings its own target and conditions. */
export const monitorInput = z
  .discriminatedUnion(
    'service',
    [
      z.object({
        ...monitorSettings,
        service: z.literal('website'),
        target: websiteTarget,
        conditions: websiteConditions,
      }),
      z.object({
        ...monitorSettings,
        service: z.literal('shopify'),
        target: shopifyTargetInput,
        conditions: shopifyConditions,
      }),
      z.object({
        ...monitorSettings,
        service: z.literal('google_ads'),
        target: googleAdsTargetInput,
        conditions: googleAdsConditions,
      }),
      z.object({
        ...monitorSettings,
        service: z.literal('facebook_ads'),
        target: metaAdsTargetInput,
        conditions: metaAdsConditions,
      }),
    ],
    { error: 'Choose what to watch: a website, a Shopify shop, a Google Ads or a Meta ad account.' },
  )
  .refine(isAlertSettingsValid, {
    message:
      'Check the alert settings: each ticked channel needs its contact filled in (and consent for calls and SMS), and the email must look like name@shop.com.',
    path: ['emailSettings'],
  });
export type MonitorInput = z.infer<typeof monitorInput>;

const isoDate = z.string();

/** What a monitor's row in a list shows: its state, not its settings. */
const listedState = {
  monitorId: z.string(),
  name: z.string(),
  intervalSeconds: z.number().int(),
  status: z.enum(MONITOR_STATUSES),
  paused: z.boolean(),
  /** Why Vigil paused it (the plan's limits), in words; null when running or paused by the person. */
  pauseReason: z.string().nullable(),
  lastCheckedAt: isoDate.nullable(),
  lastResponseMs: z.number().int().nullable(),
  lastError: z.string().nullable(),
  /** Share of successful checks in the last 24 hours, 0–100, or null before any check. */
  uptime24h: z.number().nullable(),
  openIncidents: z.number().int(),
  createdAt: isoDate,
};

const monitorState = {
  ...listedState,
  repeatIntervalMinutes: z.number().int(),
  confirmations: z.number().int(),
  languageCode: z.string(),
  callSettings: phoneChannel,
  smsSettings: phoneChannel,
  emailSettings: emailChannel,
};

export const websiteMonitor = z.object({
  ...monitorState,
  service: z.literal('website'),
  target: websiteTarget,
  conditions: websiteConditions,
});
export const shopifyMonitor = z.object({
  ...monitorState,
  service: z.literal('shopify'),
  target: shopifyTarget,
  conditions: shopifyConditions,
  /** The shop connection it watches through; its status shows when the connection is lost. */
  connection: connection.nullable(),
});
export const googleAdsMonitor = z.object({
  ...monitorState,
  service: z.literal('google_ads'),
  target: googleAdsTarget,
  conditions: googleAdsConditions,
  /** The Google account it reads through. */
  connection: connection.nullable(),
});
export const metaAdsMonitor = z.object({
  ...monitorState,
  service: z.literal('facebook_ads'),
  target: metaAdsTarget,
  conditions: metaAdsConditions,
  /** The Facebook account it reads through. */
  connection: connection.nullable(),
});
export const monitor = z.discriminatedUnion('service', [
  websiteMonitor,
  shopifyMonitor,
  googleAdsMonitor,
  metaAdsMonitor,
]);
export type Monitor = z.infer<typeof monitor>;

export const monitorResponse = envelope(monitor);

/**
 * A monitor as a list shows it (the monitor list, pickers, filters): its state and what it watches, without the
 * settings only its page and its form need (conditions, alert channels, repeat, confirmations, language). Half the
 * bytes of a full monitor, and a page of them is read, decoded and written at about half the cost.
 */
export const monitorListItem = z.discriminatedUnion('service', [
  z.object({ ...listedState, service: z.literal('website'), target: websiteTarget }),
  z.object({
    ...listedState,
    service: z.literal('shopify'),
    target: shopifyTarget,
    connection: connection.nullable(),
  }),
  z.object({
    ...listedState,
    service: z.literal('google_ads'),
    target: googleAdsTarget,
    connection: connection.nullable(),
  }),
  z.object({
    ...listedState,
    service: z.literal('facebook_ads'),
    target: metaAdsTarget,
    connection: connection.nullable(),
  }),
]);
export type MonitorListItem = z.infer<typeof monitorListItem>;

export const monitorListQuery = pageQuery;
export const monitorListResponse = envelope(pageOf(monitorListItem));

const monitorId = z.uuid({ error: 'That monitor does not exist.' });
export const monitorUpdateBody = monitorInput.and(z.object({ monitorId }));
export const monitorInfoQuery = z.object({ monitorId });
/** Check now: the monitor's next check is moved to this moment (paused monitors are not checked). */
export const checkNowBody = z.object({ monitorId });

/** `monitor_ids` as the spec names it: repeated, or comma-separated in one value. */
export const monitorIdsQuery = z.object({
  monitor_ids: z
    .union([z.string(), z.array(z.string())])
    .transform((value) =>
      (Array.isArray(value) ? value : value.split(',')).map((id) => id.trim()).filter(Boolean),
    )
    .pipe(
      z
        .array(monitorId)
        .min(1, 'Choose at least one monitor.')
        .max(100, 'Choose at most 100 monitors at once.'),
    ),
});
export const monitorIdsBody = z.object({
  monitor_ids: z
    .array(monitorId)
    .min(1, 'Choose at least one monitor.')
    .max(100, 'Choose at most 100 monitors at once.'),
});
export const monitorCountResponse = envelope(z.object({ count: z.number().int() }));

/** What the app shows on every page: running monitors down or confirming a failure, and alerts not yet acknowledged. */
export const monitorSummary = z.object({
  down: z.number().int(),
  confirming: z.number().int(),
  openAlerts: z.number().int(),
});
export type MonitorSummary = z.infer<typeof monitorSummary>;
export const monitorSummaryResponse = envelope(monitorSummary);

// ---- Detail: uptime and response times over a range. ----
export const monitorStatsQuery = z.object({ monitorId, range: z.enum(STATS_RANGES).default('24h') });
export const monitorStatsResponse = envelope(
  z.object({
    range: z.enum(STATS_RANGES),
    uptime: z.object({
      '24h': z.number().nullable(),
      '7d': z.number().nullable(),
      '30d': z.number().nullable(),
    }),
    /** One point per bucket (5 minutes for 24 h, an hour for 7 d and 30 d). */
    series: z.array(
      z.object({
        at: isoDate,
        checks: z.number().int(),
        failures: z.number().int(),
        p50Ms: z.number().nullable(),
        p95Ms: z.number().nullable(),
      }),
    ),
    /**
     * When the monitor was down in the range: its incidents, overlapping ones merged, oldest first; `from` no
     * earlier than the first bucket, `to` null while one is still unresolved.
     */
    downtime: z.array(z.object({ from: isoDate, to: isoDate.nullable() })),
  }),
);
export type MonitorStats = z.infer<typeof monitorStatsResponse>['data'];
export type StatsRange = (typeof STATS_RANGES)[number];
export type DowntimePeriod = MonitorStats['downtime'][number];

// ---- Detail: the last checks one by one, for the status bar. ----
export const monitorChecksQuery = z.object({
  monitorId,
  limit: z.coerce.number().int().min(1).max(MAX_RECENT_CHECKS).default(MAX_RECENT_CHECKS),
});
export const checkResult = z.object({
  /** When the check ran. */
  at: isoDate,
  ok: z.boolean(),
  responseMs: z.number().int().nullable(),
  statusCode: z.number().int().nullable(),
  /** Why it failed, or what part of it could not run; null when all went well. */
  error: z.string().nullable(),
});
export type CheckResult = z.infer<typeof checkResult>;
export const monitorChecksResponse = envelope(z.object({ checks: z.array(checkResult) }));
export type MonitorChecks = z.infer<typeof monitorChecksResponse>['data'];

// ---- Contact verification: a code sent to the address, entered back. Email now; phones with Twilio. ----
const code = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'The code has 6 digits.');

/**
 * An email is verified by an emailed code; a phone number by a code sent by SMS or read out in a call (either
 * verifies the number for both channels). `languageCode` picks the language the code is said or written in.
 */
export const sendCodeBody = z.discriminatedUnion('channel', [
  z.object({ channel: z.literal('email'), email }),
  z.object({
    channel: z.enum(['sms', 'call']),
    phone: phoneNumber,
    languageCode: z.string().min(2).max(10).optional(),
  }),
]);
export type SendCodeBody = z.infer<typeof sendCodeBody>;
export const verifyCodeBody = z.discriminatedUnion('channel', [
  z.object({ channel: z.literal('email'), email, code }),
  z.object({ channel: z.enum(['sms', 'call']), phone: phoneNumber, code }),
]);
export type VerifyCodeBody = z.infer<typeof verifyCodeBody>;
export const verifiedContactResponse = envelope(
  z.object({ channel: z.string(), address: z.string(), verified: z.boolean(), message: z.string() }),
);
export type ContactVerification = z.infer<typeof verifiedContactResponse>['data'];

/** The contacts this user proved they own; an email channel may only alert an address listed here. */
export const verifiedContact = z.object({ channel: z.string(), address: z.string(), verifiedAt: isoDate });
export type VerifiedContact = z.infer<typeof verifiedContact>;
export const verifiedContactsResponse = envelope(z.object({ list: z.array(verifiedContact) }));

// ---- Why a monitor's contacts receive (or do not receive) alerts, and the month's call/SMS quota. ----

export const contactStatus = z.object({
  channel: z.enum(['call', 'sms', 'email']),
  address: z.string(),
  state: z.enum(CONTACT_STATES),
  /** One sentence a person can act on. */
  message: z.string(),
});
export type ContactStatus = z.infer<typeof contactStatus>;

export const quotaUsage = z.object({ used: z.number().int(), limit: z.number().int() });
export const monitorContactsQuery = z.object({ monitorId });
export const monitorContactsResponse = envelope(
  z.object({
    list: z.array(contactStatus),
    /** This calendar month (UTC). */
    usage: z.object({ sms: quotaUsage, calls: quotaUsage }),
  }),
);
export type MonitorContacts = z.infer<typeof monitorContactsResponse>['data'];

import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Lower-cased by the contracts' email schema before it gets here. */
  email: text('email').notNull().unique(),
  /** Null for accounts that only ever signed in through OpenID. */
  passwordHash: text('password_hash'),
  monitorKey: text('monitor_key').notNull().unique(),
  plan: text('plan').notNull().default('Free'),
  /** Unix seconds when the plan period ends; null before any plan was chosen (answered as the spec's '0'). */
  planExpiresAt: bigint('plan_expires_at', { mode: 'number' }),
  /**
   * The plan whose limits the person's monitors were last brought within ('None' once every plan ended); null
   * before any. The plan-limits job compares it with the plan in force now (modules/billing/plan-limits.ts).
   */
  limitsPlan: text('limits_plan'),
  /** The `plan_expires_at` the "your plan ends soon" email was sent for, so it goes once per period. */
  planEndWarnedFor: bigint('plan_end_warned_for', { mode: 'number' }),
  industry: text('industry'),
  telPhone: text('tel_phone'),
  contactEmail: text('contact_email'),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamptz('created_at').notNull(),
    lastUsedAt: timestamptz('last_used_at').notNull(),
  },
  (table) => [index('sessions_user_id_idx').on(table.userId)],
);

export const userIdentities = pgTable(
  'user_identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    email: text('email').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [
    uniqueIndex('user_identities_issuer_subject_idx').on(table.issuer, table.subject),
    index('user_identities_user_id_idx').on(table.userId),
  ],
);

export const passwordResetCodes = pgTable(
  'password_reset_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    /** Set when the code was used, replaced by a newer one, or burned by wrong tries. */
    consumedAt: timestamptz('consumed_at'),
  },
  (table) => [index('password_reset_codes_user_id_idx').on(table.userId)],
);

/** Fixed-window counters shared by every API process: sign-in failures, reset emails. */
export const rateLimitCounters = pgTable('rate_limit_counters', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowStartedAt: timestamptz('window_started_at').notNull(),
});

/** An OpenID sign-in in progress: what the callback needs to finish it, for 10 minutes, used once. */
export const oidcLoginRequests = pgTable(
  'oidc_login_requests',
  {
    state: text('state').primaryKey(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    redirect: text('redirect'),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [index('oidc_login_requests_expires_at_idx').on(table.expiresAt)],
);

/**
 * A watched thing of one service. `next_check_at` is the start of the next slot: workers claim due monitors
 * by moving it one interval on under `FOR UPDATE SKIP LOCKED`, so each slot is claimed once.
 */
export const monitors = pgTable(
  'monitors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    service: text('service').notNull(),
    /** Per service: `{ url }` for website; the shop and watched products for shopify (contracts). */
    target: jsonb('target').notNull(),
    /** The outside account the monitor watches through (a Shopify shop); null for websites. */
    connectionId: uuid('connection_id').references(() => providerConnections.id, { onDelete: 'set null' }),
    /**
     * An ads monitor's shop: a website or Shopify monitor of the same person whose open incident means the ads
     * pay for visits that cannot buy (services/ads/linked-shop.ts).
     */
    linkedMonitorId: uuid('linked_monitor_id').references((): AnyPgColumn => monitors.id, {
      onDelete: 'set null',
    }),
    /** Per service: each condition on/off with its thresholds (contracts `websiteConditions`). */
    conditions: jsonb('conditions').notNull(),
    intervalSeconds: integer('interval_seconds').notNull(),
    /** 0: alert once per incident event, no repeats. */
    repeatIntervalMinutes: integer('repeat_interval_minutes').notNull(),
    /** Consecutive failed checks of a condition before an incident opens. */
    confirmations: integer('confirmations').notNull(),
    /** The spec's callSettings / smsSettings / emailSettings. */
    alertSettings: jsonb('alert_settings').notNull(),
    languageCode: text('language_code').notNull(),
    paused: boolean('paused').notNull().default(false),
    /** Why Vigil paused it (the plan's limits); null when it runs or the person paused it. */
    pauseReason: text('pause_reason'),
    /** pending (never checked), up, down (an incident is open). Paused is `paused`. */
    status: text('status').notNull().default('pending'),
    nextCheckAt: timestamptz('next_check_at').notNull(),
    lastCheckedAt: timestamptz('last_checked_at'),
    lastResponseMs: integer('last_response_ms'),
    lastError: text('last_error'),
    /** Per condition: consecutive failures and successes, for confirmation and recovery. */
    checkState: jsonb('check_state').notNull().default({}),
    /**
     * Checks and failures per UTC hour over the last 24 hours, newest first, starting at `tally_hour`
     * (modules/monitors/uptime-tally.ts). The engine counts each check in the statement that records it, so
     * the monitor list's 24-hour uptime reads no check history.
     */
    tallyHour: timestamptz('tally_hour'),
    tallyChecks: smallint('tally_checks').array().notNull().default([]),
    tallyFailures: smallint('tally_failures').array().notNull().default([]),
    /**
     * Set while a worker checks the slot at `next_check_at` (the slot only moves on when its result is
     * written); a worker that dies leaves it to expire, and the slot is claimed again.
     */
    claimedUntil: timestamptz('claimed_until'),
    /**
     * A re-check was asked for (a provider webhook) while a worker held the slot: that check may have read the
     * account before the change, so writing its result moves the next check to at once instead of a slot later.
     */
    recheckRequested: boolean('recheck_requested').notNull().default(false),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (table) => [
    // A person's monitors: the summary, the plan's limits. (The list's pages go through monitor_order.)
    index('monitors_user_id_created_at_idx').on(table.userId, table.createdAt, table.id),
    index('monitors_due_idx')
      .on(table.nextCheckAt)
      .where(sql`paused = false`),
    index('monitors_connection_id_idx')
      .on(table.connectionId)
      .where(sql`connection_id is not null`),
    index('monitors_linked_monitor_id_idx')
      .on(table.linkedMonitorId)
      .where(sql`linked_monitor_id is not null`),
  ],
);

/**
 * Raw check results, kept for a bounded time; `(monitor_id, slot_at)` is the key, so no slot is written twice.
 * In the database this is a table partitioned by range of `slot_at` (migration 0011; drizzle cannot declare
 * partitioning): partitions are created ahead and dropped whole by the roll-up job (`engine/retention.ts`),
 * and a DEFAULT partition catches a result no partition covers. PostgreSQL before 17 allows no identity
 * column on a partitioned table, and nothing needs one: the key is the slot.
 */
export const checkResults = pgTable(
  'check_results',
  {
    /**
     * The monitor's; no foreign key, which would look the monitor up for every result written (a tenth of the
     * engine's write): the engine writes a result only with its monitor's row in the same statement, and a
     * trigger deletes a deleted monitor's results (migration 0017).
     */
    monitorId: uuid('monitor_id').notNull(),
    slotAt: timestamptz('slot_at').notNull(),
    checkedAt: timestamptz('checked_at').notNull(),
    ok: boolean('ok').notNull(),
    responseMs: integer('response_ms'),
    statusCode: integer('status_code'),
    /** Keys of the conditions that failed in this check. */
    failedConditions: jsonb('failed_conditions').notNull().default([]),
    error: text('error'),
  },
  (table) => [primaryKey({ columns: [table.monitorId, table.slotAt] })],
);

/**
 * The partitions of `check_results` and their bounds (`from` null: unbounded below), kept by the code that
 * creates and drops them, in the same transaction; the DEFAULT partition is not listed.
 */
export const checkResultPartitions = pgTable('check_result_partitions', {
  name: text('name').primaryKey(),
  fromAt: timestamptz('from_at'),
  toAt: timestamptz('to_at').notNull(),
});

/** Hourly roll-ups of check results, so months of history stay small. */
export const checkRollups = pgTable(
  'check_rollups',
  {
    monitorId: uuid('monitor_id')
      .notNull()
      .references(() => monitors.id, { onDelete: 'cascade' }),
    hour: timestamptz('hour').notNull(),
    checks: integer('checks').notNull(),
    failures: integer('failures').notNull(),
    p50Ms: real('p50_ms'),
    p95Ms: real('p95_ms'),
    p99Ms: real('p99_ms'),
    avgMs: real('avg_ms'),
  },
  (table) => [primaryKey({ columns: [table.monitorId, table.hour] })],
);

/**
 * How far raw results are rolled up: every slot hour before `rolled_until` has its roll-up (engine/retention.ts).
 * One row per rolled-up table (`check_results`); each run reads only the hours that closed since, so every raw
 * result is rolled up once, and once more with the next hour for results written late.
 */
export const rollupProgress = pgTable('rollup_progress', {
  source: text('source').primaryKey(),
  rolledUntil: timestamptz('rolled_until').notNull(),
});

/**
 * Each monitor's place in its owner's list, newest first: the list's pages are counted and skipped through here.
 * The engine rewrites every running monitor's row each interval, so the monitors table's pages are never all
 * visible and an offset over its index visits the table for every skipped row; this table changes only when a
 * monitor is created or deleted, so a page and the count are read from its primary key alone. Triggers on
 * `monitors` keep it (migration 0012_monitor_order), whoever inserts or deletes.
 */
export const monitorOrder = pgTable(
  'monitor_order',
  {
    userId: uuid('user_id').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    monitorId: uuid('monitor_id').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.createdAt, table.monitorId] })],
);

/**
 * How many monitors each user has, kept by a trigger on `monitor_order` (migration 0016): the list's total is one
 * primary-key read instead of a count of the user's entries on every page.
 */
export const monitorCounts = pgTable('monitor_counts', {
  userId: uuid('user_id').primaryKey(),
  monitors: integer('monitors').notNull(),
});

/** One per monitor and condition while not resolved (partial unique index). */
export const incidents = pgTable(
  'incidents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    monitorId: uuid('monitor_id')
      .notNull()
      .references(() => monitors.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    conditionKey: text('condition_key').notNull(),
    /** open, acknowledged, resolved. */
    state: text('state').notNull(),
    summary: text('summary').notNull(),
    openedAt: timestamptz('opened_at').notNull(),
    acknowledgedAt: timestamptz('acknowledged_at'),
    resolvedAt: timestamptz('resolved_at'),
    lastAlertAt: timestamptz('last_alert_at'),
    /** When the next repeat alert is due; null when none is (acknowledged, resolved, or no repeats). */
    nextAlertAt: timestamptz('next_alert_at'),
    alertCount: integer('alert_count').notNull().default(0),
    /** How a resolved incident ended: check (a passing check), person (resolved by hand), pause. */
    resolvedBy: text('resolved_by'),
    /** What the person wrote when resolving by hand. */
    resolutionNote: text('resolution_note'),
  },
  (table) => [
    uniqueIndex('incidents_one_unresolved_idx')
      .on(table.monitorId, table.conditionKey)
      .where(sql`state <> 'resolved'`),
    index('incidents_user_opened_idx').on(table.userId, table.openedAt),
    index('incidents_next_alert_idx')
      .on(table.nextAlertAt)
      .where(sql`state = 'open'`),
  ],
);

/**
 * One message of one incident event to one recipient on one channel; the unique key is what makes a
 * delivery happen once however often its job runs.
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    incidentId: uuid('incident_id')
      .notNull()
      .references(() => incidents.id, { onDelete: 'cascade' }),
    /** opened, repeat-N, resolved. */
    event: text('event').notNull(),
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    /** pending, sending, sent, failed, skipped. */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    providerMessageId: text('provider_message_id'),
    /** Set when this delivery stands in for another channel's: 'call' (not answered) or 'sms' (not delivered). */
    fallbackFor: text('fallback_for'),
    /** While 'sending': until when the worker that is sending owns it; after that another may take over. */
    leaseUntil: timestamptz('lease_until'),
    /** When its job was handed to the job engine; null rows are re-queued by the engine's sweep. */
    queuedAt: timestamptz('queued_at'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    sentAt: timestamptz('sent_at'),
  },
  (table) => [
    uniqueIndex('alert_deliveries_once_idx').on(
      table.incidentId,
      table.event,
      table.channel,
      table.recipient,
    ),
    index('alert_deliveries_unqueued_idx')
      .on(table.createdAt)
      .where(sql`queued_at is null and status = 'pending'`),
  ],
);

/** Every try of a delivery with its outcome. */
export const deliveryAttempts = pgTable(
  'delivery_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => alertDeliveries.id, { onDelete: 'cascade' }),
    startedAt: timestamptz('started_at').notNull(),
    finishedAt: timestamptz('finished_at'),
    /** sent, retry, failed, skipped. */
    outcome: text('outcome'),
    error: text('error'),
    /** The provider's id of what this try sent (Twilio's SM…/CA… sid): callbacks and lost sends are matched by it. */
    providerId: text('provider_id'),
  },
  (table) => [
    index('delivery_attempts_delivery_idx').on(table.deliveryId),
    index('delivery_attempts_provider_idx')
      .on(table.providerId)
      .where(sql`provider_id is not null`),
  ],
);

/** Numbers that replied STOP to Vigil's Twilio number: no SMS goes to them until they reply START. */
export const smsOptOuts = pgTable('sms_opt_outs', {
  /** E.164. */
  phone: text('phone').primaryKey(),
  optedOutAt: timestamptz('opted_out_at').notNull(),
});

/** Calls and SMS counted against a user's monthly plan quota; one row per user, month and channel. */
export const phoneUsage = pgTable(
  'phone_usage',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'YYYY-MM', UTC. */
    month: text('month').notNull(),
    /** sms or call. */
    channel: text('channel').notNull(),
    used: integer('used').notNull().default(0),
    /** When the "quota used up" email went out; one a month per channel. */
    warnedAt: timestamptz('warned_at'),
  },
  (table) => [primaryKey({ columns: [table.userId, table.month, table.channel] })],
);

/** A code sent to prove an alert contact belongs to the user; used once. */
export const contactVerifications = pgTable(
  'contact_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    address: text('address').notNull(),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    consumedAt: timestamptz('consumed_at'),
  },
  (table) => [index('contact_verifications_user_address_idx').on(table.userId, table.channel, table.address)],
);

/** Contacts a user proved they own: alerts go only to these. */
export const verifiedContacts = pgTable(
  'verified_contacts',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    address: text('address').notNull(),
    verifiedAt: timestamptz('verified_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.channel, table.address] })],
);

/** Server-wide secrets made once at first start and shared by every process (e.g. the alert-link key). */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamptz('created_at').notNull(),
});

/**
 * An outside account bound once through the provider's OAuth (a Shopify shop) and used by any number of
 * monitors. The token is encrypted at rest (lib/token-cipher.ts). An install that started on the provider's
 * side before the person signed in is held with no user, under a single-use key (`held_*`), until claimed.
 */
export const providerConnections = pgTable(
  'provider_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /** The provider's id of the account: the shop's myshopify domain. */
    account: text('account').notNull(),
    name: text('name').notNull(),
    scopes: text('scopes').array().notNull().default([]),
    /** `keyId:iv:tag:ciphertext` (AES-256-GCM); null once disconnected. */
    tokenCiphertext: text('token_ciphertext'),
    /** active, lost (the provider refused the token) or disconnected (by the person). */
    status: text('status').notNull().default('active'),
    statusReason: text('status_reason'),
    statusChangedAt: timestamptz('status_changed_at'),
    /** When the token ends (Meta's long-lived tokens); null when it does not. */
    tokenExpiresAt: timestamptz('token_expires_at'),
    /**
     * When a provider webhook said the account's data changed: checks drop what they fetched before it, so a
     * re-check caused by the webhook sees the change.
     */
    dataChangedAt: timestamptz('data_changed_at'),
    /** What the provider told about the account: the storefront's address, the currency. */
    details: jsonb('details').notNull().default({}),
    /** SHA-256 of the held key, and of the secret in the installing browser's cookie. */
    heldKeyHash: text('held_key_hash').unique(),
    heldBrowserHash: text('held_browser_hash'),
    heldUntil: timestamptz('held_until'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (table) => [
    uniqueIndex('provider_connections_owner_idx')
      .on(table.userId, table.provider, table.account)
      .where(sql`user_id is not null`),
    index('provider_connections_account_idx').on(table.provider, table.account),
  ],
);

/**
 * A binding in progress: the OAuth `state` (stored hashed) ties the provider's answer to the person who
 * started it (none for an install from the provider's side), the monitor it reconnects and the account.
 * Single use: taking it deletes it.
 */
export const oauthBindStates = pgTable('oauth_bind_states', {
  stateHash: text('state_hash').primaryKey(),
  provider: text('provider').notNull(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  monitorId: uuid('monitor_id'),
  account: text('account').notNull(),
  /** PKCE's code verifier (Google), sent with the code; null for providers without PKCE. */
  codeVerifier: text('code_verifier'),
  expiresAt: timestamptz('expires_at').notNull(),
  createdAt: timestamptz('created_at').notNull(),
});

/** Provider webhooks already processed, by the provider's delivery id: a retried delivery changes nothing. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    topic: text('topic').notNull(),
    account: text('account').notNull(),
    receivedAt: timestamptz('received_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.provider, table.eventId] }),
    index('webhook_events_received_at_idx').on(table.receivedAt),
  ],
);

/**
 * A plan bought through Stripe Checkout: pending until the webhook says the session completed. Its id is the
 * Checkout Session's `client_reference_id` and the Idempotency-Key of the call that opened it.
 */
export const planOrders = pgTable(
  'plan_orders',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    plan: text('plan').notNull(),
    period: text('period').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    /** pending, active or failed (contracts PLAN_ORDER_STATUSES). */
    status: text('status').notNull(),
    failureReason: text('failure_reason'),
    failureMessage: text('failure_message'),
    checkoutSessionId: text('checkout_session_id').unique(),
    checkoutUrl: text('checkout_url'),
    subscriptionId: text('subscription_id'),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
    activatedAt: timestamptz('activated_at'),
  },
  (table) => [index('plan_orders_user_id_created_at_idx').on(table.userId, table.createdAt)],
);

/**
 * A person's Stripe customer and the subscription their plan follows, as Stripe last described it: every
 * billing event re-reads the subscription from Stripe and writes it here whole, so events in any order end in
 * Stripe's latest state.
 */
export const billingAccounts = pgTable('billing_accounts', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  customerId: text('customer_id').notNull().unique(),
  subscriptionId: text('subscription_id').unique(),
  plan: text('plan'),
  period: text('period'),
  /** Stripe's subscription status: active, past_due, canceled, incomplete, … */
  status: text('status'),
  periodStart: timestamptz('period_start'),
  periodEnd: timestamptz('period_end'),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  endedAt: timestamptz('ended_at'),
  amountCents: integer('amount_cents'),
  currency: text('currency'),
  /** When a failed renewal's grace ends: the plan runs until then unless a payment arrives. */
  graceUntil: timestamptz('grace_until'),
  createdAt: timestamptz('created_at').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});

/**
 * Stripe events received, by event id: written with the verified payload before the answer, applied by a job,
 * `applied_at` set in the transaction that applies it. A retried or replayed event is a no-op.
 */
export const stripeEvents = pgTable(
  'stripe_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    receivedAt: timestamptz('received_at').notNull(),
    appliedAt: timestamptz('applied_at'),
    /** What applying it did or why it was ignored, for support. */
    outcome: text('outcome'),
  },
  (table) => [
    index('stripe_events_unapplied_idx')
      .on(table.receivedAt)
      .where(sql`applied_at is null`),
  ],
);

/**
 * Emails about the account (plan ending, payment failed, monitors paused), written in the transaction that
 * decides them under a key that makes each one once (`plan-ended:<user>:<expiry>`), sent by a job.
 */
export const accountNotices = pgTable(
  'account_notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull().unique(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    sentAt: timestamptz('sent_at'),
  },
  (table) => [
    index('account_notices_unsent_idx')
      .on(table.createdAt)
      .where(sql`sent_at is null`),
  ],
);

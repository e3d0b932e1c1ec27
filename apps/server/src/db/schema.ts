import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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

import { z } from 'zod';
import { envelope } from './envelope.ts';
import { PROVIDERS, CONNECTED_SERVICES, CONNECTION_STATUSES } from './connection-values.ts';

const isoDate = z.string();

export const connection = z.object({
  connectionId: z.string(),
  provider: z.enum(PROVIDERS),
  /**
   * The provider's id of the account: a shop's myshopify domain (`hoodies.myshopify.com`), a Google account's
   * subject, a Facebook user's id.
   */
  account: z.string(),
  /** A name for people: the shop's name, the Google account's email, the Facebook user's name. */
  name: z.string(),
  scopes: z.array(z.string()),
  status: z.enum(CONNECTION_STATUSES),
  /** Why it was lost or disconnected, as a sentence; null while active. */
  statusReason: z.string().nullable(),
  statusChangedAt: isoDate.nullable(),
  /** When the provider's token ends (Meta's long-lived tokens last 60 days); null when it does not. */
  expiresAt: isoDate.nullable(),
  /** Monitors that use it. */
  monitors: z.number().int(),
  createdAt: isoDate,
});
export type Connection = z.infer<typeof connection>;

export const connectionListQuery = z.object({ provider: z.enum(PROVIDERS).optional() });
export const connectionListResponse = envelope(z.object({ list: z.array(connection) }));
export const connectionIdQuery = z.object({
  connectionId: z.uuid({ error: 'That connection does not exist.' }),
});
export const connectionResponse = envelope(connection);

/**
 * A shop as a person types it: `hoodies`, `hoodies.myshopify.com`, or the shop's own address
 * (`shop.example.com`, `https://shop.example.com/`), which the server resolves to its myshopify domain.
 */
export const shopInput = z
  .string({ error: 'Enter your shop’s address, like hoodies.myshopify.com.' })
  .trim()
  .min(1, 'Enter your shop’s address, like hoodies.myshopify.com.')
  .max(255, 'A shop address has at most 255 characters.');

/**
 * `GET /monitor-bff/monitor/ouathuri`: the provider's authorize URL. With `monitor_id` the binding
 * (re)connects that monitor's account (the Reconnect button); without it, it connects a new account for the
 * monitor being created, of `service`. `shop` names the Shopify shop (needed unless the monitor already has one).
 */
export const oauthUriQuery = z.object({
  monitor_id: z.uuid({ error: 'That monitor does not exist.' }).optional(),
  service: z
    .enum(CONNECTED_SERVICES, {
      error: 'Choose a service that connects an account: shopify, google_ads or facebook_ads.',
    })
    .default('shopify'),
  shop: shopInput.optional(),
});
export const oauthUriResponse = envelope(
  z.object({
    url: z.string(),
    provider: z.enum(PROVIDERS),
    /**
     * The account the authorize URL is for when known before (`hoodies.myshopify.com`); null when the provider
     * tells it only once the person signs in there (Google, Facebook).
     */
    account: z.string().nullable(),
    /** The state expires then (10 minutes). */
    expiresAt: isoDate,
  }),
);

/**
 * `POST /monitor-bff/monitor/bind`: either what the provider sent back to `/app/oauth` (every query parameter,
 * as strings: the provider's proof covers all of them), or the key of a connection held since an install that
 * started on the provider's side, to claim it for the signed-in person.
 */
export const bindBody = z.union([
  z.object({
    params: z
      .record(z.string().max(64), z.string().max(4096))
      .refine((params) => Object.keys(params).length <= 30, 'Too many parameters.'),
  }),
  z.object({ key: z.string().trim().min(16).max(200) }),
]);
export type BindBody = z.infer<typeof bindBody>;

export const bindResponse = envelope(
  z.discriminatedUnion('status', [
    z.object({
      status: z.literal('bound'),
      connection,
      /** The monitor the binding was started from (Reconnect), or null for a monitor being created. */
      monitorId: z.string().nullable(),
    }),
    z.object({
      /** An install from the provider's side, by someone not signed in: the connection waits under `key`. */
      status: z.literal('held'),
      key: z.string(),
      account: z.string(),
      expiresAt: isoDate,
    }),
  ]),
);
export type BindResult = z.infer<typeof bindResponse>['data'];

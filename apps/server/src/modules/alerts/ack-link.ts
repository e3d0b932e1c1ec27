import { createHmac } from 'node:crypto';
import type { AckLinkError } from '@vigil/contracts';
import { type Clock, DAY_MS, unixSeconds } from '../../lib/clock.ts';
import { randomToken, safeEqual } from '../../lib/secrets.ts';
import type { ServerSecretRepository } from './server-secret.repository.ts';

/** The server secret that signs acknowledge links; made once, shared by every process through the database. */
export const ACK_LINK_SECRET_NAME = 'alert-ack-link-key';
export const ACK_LINK_TTL_MS = 7 * DAY_MS;
export const ACK_LINK_PATH = '/monitor-bff/alerts/acknowledge';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type AckTokenReading =
  { incidentId: string } | { error: Extract<AckLinkError, 'invalid' | 'expired'> };

export interface AckLinks {
  /** `${publicUrl}/monitor-bff/alerts/acknowledge?token=…`: acknowledges the incident without signing in, for 7 days. */
  createAckLink(incidentId: string): Promise<string>;
  /** The incident a token names, if its signature holds and it has not expired. */
  readToken(token: string): Promise<AckTokenReading>;
}

/**
 * Signed acknowledge links for alert emails (and later SMS): `<incidentId>.<expires, Unix s>.<HMAC-SHA256>`,
 * base64url, so a link names one incident and cannot be altered or used after it expires.
 */
export function createAckLinks(deps: {
  serverSecrets: ServerSecretRepository;
  clock: Clock;
  publicUrl: string;
}): AckLinks {
  const { serverSecrets, clock, publicUrl } = deps;
  let secret: Promise<string> | undefined;
  const key = () => {
    secret ??= serverSecrets.getOrCreate(ACK_LINK_SECRET_NAME, () => randomToken(32), clock.now());
    // A failed read is tried again next time instead of being remembered.
    secret.catch(() => {
      secret = undefined;
    });
    return secret;
  };
  const sign = async (payload: string) =>
    createHmac('sha256', await key())
      .update(`ack-link:${payload}`)
      .digest('base64url');

  return {
    async createAckLink(incidentId) {
      const expires = unixSeconds(clock.now()) + ACK_LINK_TTL_MS / 1000;
      const payload = `${incidentId}.${expires}`;
      const token = `${payload}.${await sign(payload)}`;
      return `${publicUrl}${ACK_LINK_PATH}?token=${encodeURIComponent(token)}`;
    },

    async readToken(token) {
      const [incidentId, expires, signature, ...rest] = token.split('.');
      if (!incidentId || !expires || !signature || rest.length > 0) return { error: 'invalid' };
      if (!UUID.test(incidentId) || !/^\d{1,12}$/.test(expires)) return { error: 'invalid' };
      if (!safeEqual(signature, await sign(`${incidentId}.${expires}`))) return { error: 'invalid' };
      if (Number(expires) <= unixSeconds(clock.now())) return { error: 'expired' };
      return { incidentId };
    },
  };
}

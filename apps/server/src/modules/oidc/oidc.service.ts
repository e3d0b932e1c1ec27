import { email as emailSchema, type Session } from '@vigil/contracts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Repositories, Store } from '../../db/store.ts';
import { AppError } from '../../lib/app-error.ts';
import { addMs, type Clock, MINUTE_MS } from '../../lib/clock.ts';
import { randomToken, sha256Base64Url } from '../../lib/secrets.ts';
import { newMonitorKey, type Caller } from '../auth/auth.service.ts';
import { LIMITS, type RateLimiter } from '../rate-limits/rate-limit.service.ts';
import type { SessionService } from '../sessions/session.service.ts';
import type { IdentityClaims, OidcClient } from './oidc.client.ts';

const REQUEST_TTL_MS = 10 * MINUTE_MS;

export interface OidcServiceDeps {
  store: Store;
  sessions: SessionService;
  limiter: RateLimiter;
  clock: Clock;
  /** Null when OpenID sign-in is off. */
  client: OidcClient | null;
  publicUrl: string;
}

const notSetUp = () =>
  new AppError(
    'UNAVAILABLE',
    'Sign-in with Google is not set up on this server. Sign in with your email and password.',
  );

export function createOidcService(deps: OidcServiceDeps) {
  const { store, sessions, limiter, clock } = deps;
  const redirectUri = `${deps.publicUrl}/app/oauth`;

  /** The user of this identity: already linked, else the account with its verified email, else a new one. */
  async function userFor(tx: Repositories, issuer: string, claims: IdentityClaims & { email: string }) {
    const now = clock.now();
    const linkedId = await tx.oidc.findUserIdByIdentity(issuer, claims.subject);
    if (linkedId) return tx.users.findById(linkedId);
    const user =
      (await tx.users.findByEmail(claims.email)) ??
      (await tx.users.insert({ email: claims.email, passwordHash: null, monitorKey: newMonitorKey(), now }));
    await tx.oidc.linkIdentity({
      userId: user.id,
      issuer,
      subject: claims.subject,
      email: claims.email,
      now,
    });
    return user;
  }

  return {
    /** Remembers state, nonce, PKCE verifier and the app's redirect for ten minutes; answers where to send the browser. */
    async start(redirect: string | undefined): Promise<{ url: string }> {
      if (!deps.client) throw notSetUp();
      const state = randomToken(32);
      const nonce = randomToken(32);
      const codeVerifier = randomToken(48);
      const url = await deps.client.authorizationUrl({
        redirectUri,
        state,
        nonce,
        codeChallenge: sha256Base64Url(codeVerifier),
      });
      const now = clock.now();
      await store.oidc.saveRequest({
        state,
        nonce,
        codeVerifier,
        redirect: redirect ?? null,
        createdAt: now,
        expiresAt: addMs(now, REQUEST_TTL_MS),
      });
      return { url };
    },

    /** Finishes the sign-in the provider sent back to /app/oauth. Failures count against the address limit. */
    async finish(body: { code: string; state: string }, caller: Caller): Promise<Session> {
      const client = deps.client;
      if (!client) throw notSetUp();
      const byAddress = LIMITS.signInByAddress(caller.ip);
      await limiter.consume(
        [byAddress],
        (retryIn) => `Too many failed sign-in attempts from your network. Try again ${retryIn}.`,
      );
      const request = await store.oidc.takeRequest(body.state);
      if (!request || request.expiresAt.getTime() <= clock.now().getTime()) {
        throw new AppError(
          'INVALID',
          'This sign-in link has expired or was already used. Start the sign-in again.',
        );
      }
      const claims = await client.signIn({
        code: body.code,
        codeVerifier: request.codeVerifier,
        redirectUri,
        nonce: request.nonce,
      });
      const email = emailSchema.safeParse(claims.email);
      if (!email.success) {
        throw new AppError(
          'INVALID',
          'Your Google account did not share an email address. Allow access to your email address, or sign up with email and password.',
        );
      }
      if (!claims.emailVerified) {
        throw new AppError(
          'INVALID',
          'Your Google account’s email address is not verified. Verify it with Google, then sign in again.',
        );
      }
      const identity = { ...claims, email: email.data };
      const signIn = () =>
        store.transaction(async (tx) => {
          const user = await userFor(tx, client.issuer, identity);
          if (!user) throw new AppError('INTERNAL', 'The account of this sign-in could not be found.');
          const token = await sessions.start(tx.sessions, user.id);
          await limiter.refund(byAddress, tx.rateLimits);
          return { token, monitor_key: user.monitorKey, redirect: request.redirect };
        });
      try {
        return await signIn();
      } catch (error) {
        // A parallel first sign-in of the same person created the account or link first: use it.
        if (!isUniqueViolation(error)) throw error;
        return await signIn();
      }
    },
  };
}
export type OidcService = ReturnType<typeof createOidcService>;

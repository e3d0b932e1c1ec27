import { AppError } from '../../lib/app-error.ts';
import type {
  GrantedAccount,
  ProviderBinding,
  VerifiedReturn,
} from '../../modules/connections/provider-binding.ts';
import { MetaError } from './meta-ads.client.ts';
import type { MetaApi } from './meta-ads.api.ts';

/** Turns a MetaError met while binding into what the person is told. */
function bindingError(error: unknown): never {
  if (error instanceof MetaError) {
    if (error.kind === 'unavailable' || error.kind === 'rate') {
      throw new AppError('UNAVAILABLE', `${error.message} Try connecting again in a minute.`, {
        retryAfterSeconds: 60,
      });
    }
    throw new AppError('INVALID', `${error.message} Connect the Facebook account again.`, { cause: error });
  }
  throw error;
}

/**
 * The Meta side of binding a Facebook account (Facebook Login's manual flow): the login dialog asking for
 * `ads_read`, the checks of its answer, then code → short-lived token → long-lived token (about 60 days, kept
 * with its end) and the person's id and name. The account is known only after the grant.
 */
export function createMetaBinding(deps: {
  api: MetaApi;
  publicUrl: string;
  now: () => number;
}): ProviderBinding {
  const { api } = deps;
  const client = api.client;
  const redirectUri = `${deps.publicUrl}/app/oauth`;

  return {
    provider: 'meta',
    noun: 'Facebook account',
    pkce: false,

    authorizeUrl: ({ state }) => client.authorizeUrl(state, redirectUri),

    verifyReturn(params): VerifiedReturn {
      if (params.error) {
        throw new AppError('INVALID', 'Connecting Meta ads was cancelled, or access was not granted.');
      }
      if (!params.code || !params.state) {
        throw new AppError(
          'INVALID',
          'Facebook’s answer is missing its code or state. Connect the Facebook account again.',
        );
      }
      return { account: null, code: params.code, state: params.state };
    },

    async grant({ code }): Promise<GrantedAccount> {
      try {
        const short = await client.exchangeCode(code, redirectUri);
        const long = await client.exchangeLongLived(short.token);
        const token = long.token;
        const [me, permissions] = await client.batch(token, [
          { path: 'me', params: { fields: 'id,name' } },
          { path: 'me/permissions' },
        ]);
        if (!me!.ok) throw me!.error;
        const person = me!.body as { id?: string; name?: string };
        if (!person.id) throw new MetaError('Meta did not say which Facebook account this is.', 'refused');
        const granted =
          permissions?.ok === true
            ? ((permissions.body as { data?: { permission?: string; status?: string }[] }).data ?? [])
                .filter((entry) => entry.status === 'granted' && entry.permission)
                .map((entry) => entry.permission!)
            : ['ads_read'];
        if (!granted.includes('ads_read')) {
          throw new AppError(
            'INVALID',
            'Vigil needs permission to read your ad accounts (ads_read). Connect again and allow it.',
          );
        }
        const expiresIn = long.expiresIn;
        return {
          account: person.id,
          name: person.name ?? person.id,
          token,
          scopes: granted,
          details: {},
          expiresAt: expiresIn === null ? null : new Date(deps.now() + expiresIn * 1000),
        };
      } catch (error) {
        return bindingError(error);
      }
    },
  };
}

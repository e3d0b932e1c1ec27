import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Encrypts the tokens of connected accounts at rest with AES-256-GCM. A sealed token is
 * `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts); the account it belongs to is authenticated data,
 * so a token copied onto another row does not decrypt. Several keys may be loaded: the first seals, any of
 * them opens, which is how a key is rotated (README: add the new key first, re-seal, then drop the old one).
 */
export interface TokenCipher {
  seal(token: string, context: string): string;
  open(sealed: string, context: string): string;
  /** The key that seals; a token sealed with another one should be sealed again. */
  readonly currentKeyId: string;
}

export interface TokenKey {
  id: string;
  key: Buffer;
}

export class TokenKeyError extends Error {}

/** `id:base64,id2:base64`: 32-byte keys, ids of letters, digits, - and _. */
export function parseTokenKeys(text: string): TokenKey[] {
  const keys = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [id, encoded, ...rest] = part.split(':');
      if (!id || !encoded || rest.length > 0 || !/^[A-Za-z0-9_-]{1,32}$/.test(id)) {
        throw new TokenKeyError('TOKEN_ENCRYPTION_KEYS must list keys as id:base64, separated by commas.');
      }
      const key = Buffer.from(encoded, 'base64');
      if (key.length !== 32) {
        throw new TokenKeyError(
          `TOKEN_ENCRYPTION_KEYS: key "${id}" must be 32 bytes (44 base64 characters).`,
        );
      }
      return { id, key };
    });
  if (keys.length === 0) throw new TokenKeyError('TOKEN_ENCRYPTION_KEYS lists no key.');
  if (new Set(keys.map((k) => k.id)).size !== keys.length) {
    throw new TokenKeyError('TOKEN_ENCRYPTION_KEYS names a key id twice.');
  }
  return keys;
}

export function newTokenKey(id = `k${Date.now().toString(36)}`): string {
  return `${id}:${randomBytes(32).toString('base64')}`;
}

/**
 * The embedded default's key: made once in the data folder (readable by its owner only), so a fresh
 * `npm start` needs no setting and the tokens survive restarts.
 */
export async function keysFromDataDir(dataDir: string): Promise<string> {
  const file = join(dataDir, 'token-encryption.key');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const key = newTokenKey('local');
  await writeFile(file, `${key}\n`, { mode: 0o600, flag: 'wx' }).catch(async (error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  });
  return (await readFile(file, 'utf8')).trim();
}

export function createTokenCipher(keys: TokenKey[]): TokenCipher {
  const [current] = keys;
  if (!current) throw new TokenKeyError('No token encryption key.');
  const byId = new Map(keys.map((k) => [k.id, k.key]));
  return {
    currentKeyId: current.id,
    seal(token, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current.key, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url'));
      return ['v1', current.id, ...parts].join('.');
    },
    open(sealed, context) {
      const [version, id, iv, tag, body] = sealed.split('.');
      const key = id === undefined ? undefined : byId.get(id);
      if (version !== 'v1' || !key || !iv || !tag || body === undefined) {
        throw new TokenKeyError(`This token was sealed with a key that is not loaded (${id ?? 'none'}).`);
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createTokenCipher,
  keysFromDataDir,
  newTokenKey,
  parseTokenKeys,
  TokenKeyError,
} from './token-cipher.ts';

describe('token cipher', () => {
  it('seals a token so that only the same account opens it', () => {
    const cipher = createTokenCipher(parseTokenKeys(newTokenKey('a')));
    const sealed = cipher.seal('shpat_secret', 'shopify:hoodies.myshopify.com');
    expect(sealed).not.toContain('shpat_secret');
    expect(sealed.startsWith('v1.a.')).toBe(true);
    expect(cipher.open(sealed, 'shopify:hoodies.myshopify.com')).toBe('shpat_secret');
    expect(() => cipher.open(sealed, 'shopify:other.myshopify.com')).toThrow();
  });

  it('seals with the first key and opens with any listed key, which is how a key is rotated', () => {
    const oldKey = newTokenKey('old');
    const newKey = newTokenKey('new');
    const sealedOld = createTokenCipher(parseTokenKeys(oldKey)).seal('t1', 'c');
    const rotated = createTokenCipher(parseTokenKeys(`${newKey},${oldKey}`));
    expect(rotated.open(sealedOld, 'c')).toBe('t1');
    expect(rotated.seal('t2', 'c').startsWith('v1.new.')).toBe(true);
    expect(() => createTokenCipher(parseTokenKeys(newKey)).open(sealedOld, 'c')).toThrow(TokenKeyError);
  });

  it('refuses keys that are not 32 bytes, malformed lists and repeated ids', () => {
    expect(() => parseTokenKeys('a:c2hvcnQ=')).toThrow(/32 bytes/);
    expect(() => parseTokenKeys('nocolon')).toThrow(/id:base64/);
    const key = newTokenKey('same');
    expect(() => parseTokenKeys(`${key},${key}`)).toThrow(/twice/);
  });

  it('makes the embedded key once in the data folder, readable by its owner only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vigil-keys-'));
    try {
      const first = await keysFromDataDir(join(dir, 'data'));
      expect(await keysFromDataDir(join(dir, 'data'))).toBe(first);
      expect(parseTokenKeys(first)).toHaveLength(1);
      const file = join(dir, 'data', 'token-encryption.key');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await readFile(file, 'utf8')).trim()).toBe(first);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

import { type Algorithm, hash, verify } from '@node-rs/argon2';

// Algorithm is an ambient const enum, which isolated modules cannot read: 2 is Argon2id.
const ARGON2ID = 2 as Algorithm.Argon2id;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password or a hash this server cannot read. */
  verify(passwordHash: string, password: string): Promise<boolean>;
  /** Spends the time of one verification, so an unknown email answers as slowly as a wrong password. */
  burnTime(password: string): Promise<void>;
}

export interface Argon2Params {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): about 30 ms per hash on one core here. */
export const ARGON2_PARAMS: Argon2Params = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function createPasswordHasher(params: Argon2Params = ARGON2_PARAMS): PasswordHasher {
  const options = { algorithm: ARGON2ID, ...params };
  let dummyHash: Promise<string> | undefined;
  const verifyHash = async (passwordHash: string, password: string) => {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  };
  return {
    hash: (password) => hash(password, options),
    verify: verifyHash,
    async burnTime(password) {
      dummyHash ??= hash('vigil-timing-equaliser', options);
      await verifyHash(await dummyHash, password);
    },
  };
}

import { createHash, randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { MIGRATIONS_FOLDER, openDatabase, type Database } from '../db/database.ts';
import { createWakeups } from '../db/wakeups.ts';

/** The two databases every API suite runs on: `describe.each(databases)`. */
export interface TestDatabase {
  name: 'PGlite' | 'PostgreSQL';
  /**
   * A fresh, migrated, empty database; `drop` closes and deletes it. With `through` (a migration's tag, e.g.
   * `0009_incident_resolution`), migrated only that far, to test a later migration on data in place.
   */
  create(options?: { through?: string }): Promise<{ database: Database; drop(): Promise<void> }>;
}

export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A migrated, empty PGlite data folder as a tarball in the temp folder, made once per schema version:
 * loading it takes a second where a fresh PGlite (initdb) plus migrations takes several.
 */
async function pgliteTemplate(): Promise<Blob> {
  const journal = await readFile(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8');
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pglitePackage = await readFile(join(dirname(pgliteEntry), '..', 'package.json'), 'utf8');
  const version = createHash('sha256').update(journal).update(pglitePackage).digest('hex');
  const path = join(tmpdir(), `vigil-pglite-template-${version.slice(0, 16)}.tar.gz`);
  try {
    return new Blob([await readFile(path)]);
  } catch {
    const database = await openDatabase({});
    await database.migrate();
    if (database.kind !== 'pglite') throw new Error('expected PGlite');
    const dump = await database.pglite.dumpDataDir('gzip');
    await database.close();
    // Written aside and renamed, so a suite starting at the same time never reads half a file.
    const partial = `${path}.${process.pid}.tmp`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, path);
    return dump;
  }
}

/** A copy of the migrations folder whose journal ends at `tag`. */
async function migrationsThrough(tag: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'vigil-migrations-'));
  await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const end = journal.entries.findIndex((entry) => entry.tag === tag);
  if (end < 0) throw new Error(`no migration ${tag}`);
  journal.entries = journal.entries.slice(0, end + 1);
  await writeFile(journalPath, JSON.stringify(journal));
  return folder;
}

async function migrateThrough(database: Database, tag: string): Promise<void> {
  const migrationsFolder = await migrationsThrough(tag);
  try {
    if (database.kind === 'pglite') await migratePglite(database.db as never, { migrationsFolder });
    else await migratePg(database.db as never, { migrationsFolder });
  } finally {
    await rm(migrationsFolder, { recursive: true, force: true });
  }
}

const pglite: TestDatabase = {
  name: 'PGlite',
  async create(options) {
    if (options?.through) {
      const database = await openDatabase({});
      await migrateThrough(database, options.through);
      return { database, drop: () => database.close() };
    }
    const database = await openDatabase({ pgliteTemplate: await pgliteTemplate() });
    await database.migrate();
    return { database, drop: () => database.close() };
  },
};

/** A database of its own per suite on the server at TEST_DATABASE_URL; never skipped when it is down. */
const postgres: TestDatabase = {
  name: 'PostgreSQL',
  async create(options) {
    const name = `vigil_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    try {
      await admin.connect();
    } catch (error) {
      throw new Error(
        `The PostgreSQL tests need a server at ${TEST_DATABASE_URL} (set TEST_DATABASE_URL): ${(error as Error).message}`,
      );
    }
    try {
      await admin.query(`create database ${name}`);
    } finally {
      await admin.end();
    }
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 5 });
    if (options?.through) await migrateThrough(database, options.through);
    else await database.migrate();
    return {
      database,
      async drop() {
        await database.close();
        const cleanup = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await cleanup.connect();
        try {
          await cleanup.query(`drop database if exists ${name} with (force)`);
        } finally {
          await cleanup.end();
        }
      },
    };
  },
};

export const databases: TestDatabase[] = [pglite, postgres];

/**
 * A fresh database, a second connection to it (another process's, on PostgreSQL; PGlite has only the one) and
 * this process's wake-ups, for tests of what one process hears of another's writes. `tearDown` closes all three.
 */
export async function databaseWithWakeups(testDatabase: TestDatabase) {
  const { database, drop } = await testDatabase.create();
  const other =
    database.kind === 'postgres'
      ? await openDatabase({ databaseUrl: database.connectionString, poolSize: 2 })
      : database;
  const wakeups = createWakeups(database);
  return {
    database,
    other,
    wakeups,
    async tearDown() {
      await wakeups.close();
      if (other !== database) await other.close();
      await drop();
    },
  };
}

/**
 * The database on one connection, so statements and a look at the session's prepared statements share a session
 * (PGlite has only the one). `close` closes that connection only.
 */
export async function oneSession(database: Database): Promise<{ session: Database; close(): Promise<void> }> {
  if (database.kind !== 'postgres') return { session: database, close: async () => undefined };
  const session = await openDatabase({ databaseUrl: database.connectionString, poolSize: 1 });
  return { session, close: () => session.close() };
}

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * The drizzle migrations folder: src/db/migrations when run from source (tsx, vitest), dist/migrations
 * beside the bundle (build.mjs copies it there), since import.meta.url is this file or the bundle.
 */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

// Any constant shared by every Vigil process; it serialises migrations when several start at once.
const MIGRATION_LOCK_ID = 7_263_511;

interface DatabaseBase {
  db: Db;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  /** Applies pending migrations from MIGRATIONS_FOLDER. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export interface PgliteDatabase extends DatabaseBase {
  kind: 'pglite';
  pglite: PGlite;
}

export interface PostgresDatabase extends DatabaseBase {
  kind: 'postgres';
  connectionString: string;
  pool: pg.Pool;
}

export type Database = PgliteDatabase | PostgresDatabase;

export interface DatabaseOptions {
  /** PostgreSQL; unset: PGlite. */
  databaseUrl?: string;
  /** PGlite's data lives in `${dataDir}/pglite`; unset: in memory (tests). */
  dataDir?: string;
  /** In-memory PGlite only: start from this dumped data folder instead of an empty one (tests). */
  pgliteTemplate?: Blob;
  poolSize?: number;
}

/** PostgreSQL when a URL is given, else the embedded PGlite in `${dataDir}/pglite`. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openPglite(options.dataDir, options.pgliteTemplate);
}

/**
 * PGlite's PostgreSQL runs with initdb's 128 MB of shared buffers, and its resident memory grows with them from
 * the start (a reopened data folder, measured: 322 MiB at 128 MB, 226 MiB at 64 MB, 184 MiB at 16 MB). 64 MB
 * still holds the embedded mode's working set (monitors, their indexes, recent results); the operating system's
 * file cache holds the rest.
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=64MB'];

async function openPglite(dataDir: string | undefined, template: Blob | undefined): Promise<PgliteDatabase> {
  let pglite: PGlite;
  if (dataDir) {
    // PGlite creates its own folder but not the ones above it.
    await mkdir(dataDir, { recursive: true });
    pglite = new PGlite(join(dataDir, 'pglite'), { startParams: PGLITE_START_PARAMS });
  } else {
    pglite = new PGlite({ startParams: PGLITE_START_PARAMS, ...(template ? { loadDataDir: template } : {}) });
  }
  await pglite.waitReady;
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Db;
  return {
    kind: 'pglite',
    pglite,
    db,
    async ping() {
      await pglite.query('select 1');
    },
    async migrate() {
      await migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    },
    async close() {
      if (!pglite.closed) await pglite.close();
    },
  };
}

async function openPostgres(connectionString: string, poolSize: number): Promise<PostgresDatabase> {
  // Idle connections are kept a minute, longer than the check engine's safety poll: an idle process reuses one
  // instead of opening a connection (a PostgreSQL backend) for each look.
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    application_name: 'vigil',
    idleTimeoutMillis: 60_000,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  // Nor one checked out for a transaction (PostgreSQL restarted under it): pg emits the loss on the client,
  // where the pool listens only while it is idle. The transaction's queries fail with it, and the pool drops
  // the client when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    kind: 'postgres',
    connectionString,
    pool,
    db,
    async ping() {
      await pool.query('select 1');
    },
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        try {
          await migratePg(drizzlePg({ client, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
        }
      } finally {
        client.release();
      }
    },
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
}

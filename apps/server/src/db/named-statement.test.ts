import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, oneSession } from '../test/databases.ts';
import type { Database } from './database.ts';
import { namedRunner, type RunNamed } from './named-statement.ts';
import { rowsOf } from './raw-sql.ts';

const dialect = new PgDialect();

describe.each(databases)('named statements on $name', (testDatabase) => {
  let drop: () => Promise<void>;
  let database: Database;
  let session: Database;
  let closeSession: () => Promise<void>;
  let named: RunNamed;

  beforeAll(async () => {
    ({ database, drop } = await testDatabase.create());
    ({ session, close: closeSession } = await oneSession(database));
    named = namedRunner(session.db)!;
    await database.db.execute(sql`create table named_test (id int primary key, tags text[], at timestamptz)`);
  });

  afterAll(async () => {
    await closeSession();
    await drop();
  });

  const prepared = async (name: string) =>
    rowsOf<{ generic: number; custom: number }>(
      session.db,
      sql`select generic_plans::int as generic, custom_plans::int as custom
          from pg_prepared_statements where name = ${name}`,
    );

  it('answers what drizzle answers for the same statement, and parses it once', async () => {
    const insert = (id: number, tags: (string | null)[]) => ({
      sql: `insert into named_test (id, tags, at) values ($1, $2::text[], '2026-11-28T05:00:00Z')
            returning id, tags, at, $3::jsonb as doc`,
      params: [id, tags, { a: 1 }],
    });
    // Quotes, backslashes, commas, braces and NULL survive the array's text form.
    const tags = ['plain', 'a "quoted", {braced} one', 'back\\slash', null];
    const [row] = await named<Record<string, unknown>>('named_test_insert', insert(1, tags));
    // A timestamp as PostgreSQL's text, as drizzle's drivers answer it.
    expect(row).toEqual({ id: 1, tags, at: '2026-11-28 05:00:00+00', doc: { a: 1 } });
    const viaDrizzle = await rowsOf(session.db, sql`select id, tags, at from named_test where id = 1`);
    expect(viaDrizzle).toEqual([{ id: 1, tags, at: row!.at }]);

    for (let id = 2; id <= 8; id++) await named('named_test_insert', insert(id, []));
    expect(await prepared('named_test_insert')).toHaveLength(1);
    // Planned from the kept statement: custom plans first, then, for this one, PostgreSQL's generic one.
    const [plans] = await prepared('named_test_insert');
    expect(plans!.custom + plans!.generic).toBe(8);
  });

  it('answers rows as arrays', async () => {
    const rows = await named<unknown[]>(
      'named_test_arrays',
      dialect.sqlToQuery(sql`select id, tags[1] as tag from named_test where id = ${1}`),
      { rowMode: 'array' },
    );
    expect(rows).toEqual([[1, 'plain']]);
  });

  it('refuses another text under a name it holds', async () => {
    await named('named_test_one', dialect.sqlToQuery(sql`select 1 as n`));
    await expect(named('named_test_one', dialect.sqlToQuery(sql`select 2 as n`))).rejects.toThrow();
  });

  it('answers NULL cells, empty strings and text beyond ASCII as they are', async () => {
    const rows = await named<Record<string, unknown>>(
      'named_test_cells',
      dialect.sqlToQuery(
        sql`select null::text as none, ''::text as empty, ${'Café “déjà” 🚀'}::text as words, null::jsonb as doc,
              ${2.5}::float8 as x, true as yes`,
      ),
    );
    expect(rows).toEqual([{ none: null, empty: '', words: 'Café “déjà” 🚀', doc: null, x: 2.5, yes: true }]);
  });

  it('throws the database’s error and keeps the session usable', async () => {
    const insert = dialect.sqlToQuery(sql`insert into named_test (id) values (${1}) returning id`);
    await expect(named('named_test_conflict', insert)).rejects.toMatchObject({
      code: '23505',
      message: expect.stringContaining('named_test_pkey'),
      constraint: 'named_test_pkey',
      table: 'named_test',
    });
    const [row] = await named<{ n: number }>(
      'named_test_count',
      dialect.sqlToQuery(sql`select count(*)::int as n from named_test`),
    );
    expect(row!.n).toBe(8);
  });

  it('is not offered inside a transaction, where rowsOf runs the statement through drizzle', async () => {
    const ids = await database.db.transaction(async (tx) => {
      expect(namedRunner(tx as never)).toBeUndefined();
      return rowsOf<{ id: number }>(
        tx as never,
        sql`select id from named_test where id = ${2}`,
        'named_test_tx',
      );
    });
    expect(ids).toEqual([{ id: 2 }]);
  });

  if (testDatabase.name !== 'PGlite') return;

  it('on PGlite, waits for a transaction in progress, and prepares a statement once when asked twice at once', async () => {
    let inside = false;
    let sawInside: boolean | undefined;
    let begun!: () => void;
    const begin = new Promise<void>((resolve) => (begun = resolve));
    const transaction = database.db.transaction(async (tx) => {
      inside = true;
      await tx.execute(sql`update named_test set tags = '{t}' where id = 3`);
      begun();
      await new Promise((resolve) => setTimeout(resolve, 50));
      inside = false;
    });
    await begin;
    const count = dialect.sqlToQuery(sql`select count(*)::int as n from named_test where tags = '{t}'`);
    const both = Promise.all([
      named<{ n: number }>('named_test_wait', count).then((rows) => ((sawInside = inside), rows)),
      named<{ n: number }>('named_test_wait', count),
    ]);
    await transaction;
    expect(await both).toEqual([[{ n: 1 }], [{ n: 1 }]]);
    expect(sawInside).toBe(false);
  });

  it('on PGlite, hands a notification the statement raised to the listeners, once', async () => {
    if (database.kind !== 'pglite') throw new Error('expected PGlite');
    const heard: string[] = [];
    const unlisten = await database.pglite.listen('named_test_channel', (payload: string) =>
      heard.push(payload),
    );
    try {
      await named(
        'named_test_notify',
        dialect.sqlToQuery(sql`select pg_notify('named_test_channel', ${'hello'}) as sent`),
      );
      for (let waited = 0; heard.length === 0 && waited < 1_000; waited += 10)
        await new Promise((resolve) => setTimeout(resolve, 10));
      // Another exchange, and a moment for a second delivery to show.
      await database.pglite.query('select 1');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard).toEqual(['hello']);
    } finally {
      await unlisten();
    }
  });

  it('on PGlite, prepares again a statement the session let go of', async () => {
    const one = dialect.sqlToQuery(sql`select ${7}::int as n`);
    await named('named_test_again', one);
    await database.db.execute(sql`deallocate all`);
    expect(await named('named_test_again', one)).toEqual([{ n: 7 }]);
  });
});

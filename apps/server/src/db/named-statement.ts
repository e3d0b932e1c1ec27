import { PGlite, messages, protocol, types } from '@electric-sql/pglite';
import type { Query } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from './database.ts';
import { pgText } from './pg-text.ts';

/** How a named statement's rows come back: as objects (the driver's default) or as arrays. */
export interface NamedOptions {
  rowMode?: 'array';
}

/**
 * The types drizzle's drivers answer as PostgreSQL's text (timestamps, dates, intervals, and arrays of them and
 * of numerics), so that a statement answers the same named or through drizzle.
 */
const leftAsText = (text: string) => text;
const LEFT_AS_TEXT: Record<number, typeof leftAsText> = Object.fromEntries(
  [1082, 1114, 1184, 1186, 1115, 1182, 1185, 1187, 1231].map((oid) => [oid, leftAsText]),
);
const poolTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    LEFT_AS_TEXT[oid] ?? pg.types.getTypeParser(oid, format as 'text'),
};

export type RunNamed = <Row>(name: string, query: Query, options?: NamedOptions) => Promise<Row[]>;

const runners = new WeakMap<PGlite | pg.Pool, RunNamed>();

/**
 * Runs the hottest statements parsed once per database session, under a name, instead of parsed, analysed and
 * sent afresh each time: on PostgreSQL through node-postgres's named statements (each pooled connection prepares
 * it on first use), on PGlite as a statement kept in its one session, each run one Bind, Describe, Execute and Sync
 * handed to it at once (its `query` hands over six messages one by one, parsing the text each time), its answer read
 * from the bytes (`read`). The check engine's claim and write cost a tenth less CPU so on PostgreSQL and a sixth
 * less on PGlite (bench/README.md, "Scheduled checks", thirteenth session), and reading the answer so, a fifth less
 * again on PGlite (fifteenth session). A name stands for one text: two texts under one name throw.
 *
 * Undefined for a transaction's `db` (only the database's own client is known here): run those through drizzle.
 */
export function namedRunner(db: Db): RunNamed | undefined {
  const client = (db as { $client?: unknown }).$client;
  if (!(client instanceof PGlite || client instanceof pg.Pool)) return undefined;
  let runner = runners.get(client);
  if (!runner)
    runners.set(client, (runner = client instanceof PGlite ? pgliteRunner(client) : poolRunner(client)));
  return runner;
}

function poolRunner(pool: pg.Pool): RunNamed {
  return async <Row>(name: string, query: Query, options: NamedOptions = {}) => {
    const result = await pool.query({
      name,
      text: query.sql,
      values: query.params,
      types: poolTypes,
      ...(options.rowMode ? { rowMode: options.rowMode } : {}),
    });
    return result.rows as Row[];
  };
}

/** PostgreSQL's "prepared statement does not exist": the session lost it (DEALLOCATE, DISCARD ALL). */
const UNDEFINED_STATEMENT = '26000';

function pgliteRunner(lite: PGlite): RunNamed {
  /** The statements its one session holds: name → text. */
  const known = new Map<string, string>();
  const { serialize } = protocol;
  const parsers: Parsers = { ...types.parsers, ...lite.parsers, ...LEFT_AS_TEXT };

  /**
   * Hands PGlite one exchange and answers its bytes as they come, unparsed: its other ways parse every message into
   * objects first, even the raw one.
   */
  async function exchange(messages: Uint8Array[]): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    await lite.execProtocolRawStream(concat(messages), { onRawData: (chunk) => chunks.push(chunk.slice()) });
    return chunks.length === 1 ? chunks[0]! : concat(chunks);
  }

  /** Parses the statement into the session under `name`. */
  async function prepare(name: string, query: Query) {
    read(await exchange([serialize.parse({ name, text: query.sql, types: [] }), serialize.sync()]), parsers);
    known.set(name, query.sql);
  }

  async function run(name: string, query: Query, options: NamedOptions) {
    const answer = await exchange([
      serialize.bind({ statement: name, values: query.params.map(pgText) }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    return read(answer, parsers, options.rowMode === 'array');
  }

  /**
   * A notification the statement raised (PGlite's listeners hear only what its own parsing finds), raised again
   * through PGlite's own path so that they get it.
   */
  const notify = (notifications: Notification[]) => {
    for (const { channel, payload } of notifications)
      lite.query('select pg_notify($1, $2)', [channel, payload]).catch(() => undefined);
  };

  // As PGlite's own `query`: after any transaction in progress, one exchange at a time.
  return async <Row>(name: string, query: Query, options: NamedOptions = {}) => {
    const { rows, notifications } = await lite._runExclusiveTransaction(() =>
      lite._runExclusiveQuery(async () => {
        const text = known.get(name);
        if (text === undefined) await prepare(name, query);
        else if (text !== query.sql) throw new Error(`Statement ${name} was prepared with another text`);
        try {
          return await run(name, query, options);
        } catch (error) {
          if ((error as { code?: string }).code !== UNDEFINED_STATEMENT) throw error;
          await prepare(name, query);
          return run(name, query, options);
        }
      }),
    );
    if (notifications.length > 0) notify(notifications);
    return rows as Row[];
  };
}

type Parsers = Record<number, (text: string, typeId: number) => unknown>;
interface Notification {
  channel: string;
  payload: string;
}

const utf8 = new TextDecoder();
/** The fields of an ErrorResponse, by their one-letter code (PostgreSQL's protocol, "Error and Notice Message Fields"). */
const ERROR_FIELDS: Record<string, keyof messages.DatabaseError> = {
  S: 'severity',
  C: 'code',
  D: 'detail',
  H: 'hint',
  P: 'position',
  p: 'internalPosition',
  q: 'internalQuery',
  W: 'where',
  s: 'schema',
  t: 'table',
  c: 'column',
  d: 'dataType',
  n: 'constraint',
  F: 'file',
  L: 'line',
  R: 'routine',
};

/**
 * Reads one exchange's answer, PostgreSQL's backend messages as PGlite returns them, straight from its bytes: the
 * rows, each cell turned by the parser of its type (as PGlite's `parseResults`), the notifications it carried, and
 * the statement's error thrown as PGlite's `DatabaseError`. PGlite's own path builds an object and copies a buffer
 * per message and per cell before that: at 10,000 monitors embedded, PGlite's JavaScript fell from 12 % to 7 % of
 * the process's busy CPU with this (bench/README.md, fifteenth session).
 */
function read(answer: Uint8Array, parsers: Parsers, asArrays = false) {
  const view = new DataView(answer.buffer, answer.byteOffset, answer.byteLength);
  const rows: unknown[] = [];
  const notifications: Notification[] = [];
  let columns: Column[] = [];
  let error: messages.DatabaseError | undefined;
  for (let at = 0; at + 5 <= answer.length;) {
    const kind = answer[at]!;
    const end = at + 1 + view.getInt32(at + 1);
    const body = at + 5;
    if (kind === 0x54 /* T: RowDescription */) columns = columnsOf(answer, view, body, parsers);
    else if (kind === 0x44 /* D: DataRow */) rows.push(rowOf(answer, view, body, columns, asArrays));
    else if (kind === 0x41 /* A: NotificationResponse */) {
      const [channel, next] = cstring(answer, body + 4);
      notifications.push({ channel, payload: cstring(answer, next)[0] });
    } else if (kind === 0x45 /* E: ErrorResponse */) error ??= errorOf(answer, body, end);
    at = end;
  }
  if (error) throw error;
  return { rows, notifications };
}

/** A column of the rows: its name, and how its cells are decoded. */
interface Column {
  name: string;
  decode: (text: string) => unknown;
}

/** A zero-terminated string at `at`, and where what follows it starts. */
function cstring(answer: Uint8Array, at: number): [string, number] {
  const end = answer.indexOf(0, at);
  return [utf8.decode(answer.subarray(at, end)), end + 1];
}

/** A RowDescription's columns, each decoded by the parser of its type (none: left as text). */
function columnsOf(answer: Uint8Array, view: DataView, at: number, parsers: Parsers): Column[] {
  const columns: Column[] = [];
  let field = at + 2;
  for (let i = view.getInt16(at); i > 0; i--) {
    const [name, next] = cstring(answer, field);
    // After the name: table oid (4), column number (2), type oid (4), size (2), modifier (4), format (2).
    const typeId = view.getInt32(next + 6);
    const parser = parsers[typeId];
    columns.push({ name, decode: parser ? (text) => parser(text, typeId) : (text) => text });
    field = next + 18;
  }
  return columns;
}

/** A DataRow's cells, as an array or as an object by column name. */
function rowOf(answer: Uint8Array, view: DataView, at: number, columns: Column[], asArrays: boolean) {
  const cells: unknown[] = [];
  let field = at + 2;
  for (let i = 0, count = view.getInt16(at); i < count; i++) {
    const length = view.getInt32(field);
    field += 4;
    cells.push(length < 0 ? null : columns[i]!.decode(utf8.decode(answer.subarray(field, field + length))));
    field += Math.max(length, 0);
  }
  if (asArrays) return cells;
  const row: Record<string, unknown> = {};
  for (let i = 0; i < cells.length; i++) row[columns[i]!.name] = cells[i];
  return row;
}

/** An ErrorResponse as PGlite's `DatabaseError`, with every field it carries. */
function errorOf(answer: Uint8Array, at: number, end: number): messages.DatabaseError {
  const fields: Record<string, string> = {};
  for (let field = at; field < end && answer[field] !== 0;) {
    const [text, next] = cstring(answer, field + 1);
    fields[String.fromCharCode(answer[field]!)] = text;
    field = next;
  }
  const error = new messages.DatabaseError(fields.M ?? 'unknown error', end - at + 5, 'error');
  for (const [code, key] of Object.entries(ERROR_FIELDS))
    if (fields[code] !== undefined) (error as unknown as Record<string, string>)[key] = fields[code];
  return error;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

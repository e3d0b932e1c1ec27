import fc from 'fast-check';
import type { JsonSchema } from './openapi-operations.ts';

/** The ids a fuzzed request may carry: the fuzzing user's own, another user's, and broken ones. */
export interface FuzzIds {
  own: string;
  foreign: string;
}

/** Longer than any `maxLength` in the API (the longest is 4096). */
export const OVER_ANY_MAX_LENGTH = 5000;

/** Past the 64 KiB body limit. */
export const OVER_BODY_LIMIT = 70 * 1024;

const controlCharacter = fc.integer({ min: 0, max: 31 }).map((code) => String.fromCharCode(code));

/** Strings that break parsers, databases, headers and logs: NUL, control characters, lone surrogates. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\u0001\u001f\u007f',
    '\r\nX-Injected: 1',
    '%00',
    '\uD800',
    '😀',
    '../../etc/passwd',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    'NaN',
    '-1',
    '1e400',
    'null',
    '{}',
  ),
  fc.string({ unit: controlCharacter, minLength: 1, maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 16 }),
  fc.constant('x'.repeat(OVER_ANY_MAX_LENGTH)),
);

/** Numbers at and past every edge: negative, fractional, past 32 and 53 bits, past any integer column. */
export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(-1, 0, -0, 1.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 53) - 2, 1e21, 1e308, -1e308),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Ids that are not the caller's: another user's, unknown, malformed. */
export function idValue(ids: FuzzIds): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(ids.foreign),
    fc.constant(ids.own),
    fc.uuid(),
    fc.constantFrom(
      'not-a-uuid',
      '0',
      '-1',
      '99999999999999999999',
      `${ids.own}\u0000`,
      ids.foreign.toUpperCase(),
      ` ${ids.own}`,
      '00000000-0000-0000-0000-000000000000',
      "1' OR '1'='1",
    ),
  );
}

/** A value of the wrong kind wherever it lands. */
export function wrongValue(ids: FuzzIds): fc.Arbitrary<unknown> {
  const scalar = fc.oneof(fc.constant(null), fc.boolean(), nastyNumber, nastyString, idValue(ids));
  return fc.oneof(
    { weight: 4, arbitrary: scalar },
    { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(fc.constantFrom('a', 'constructor', 'toString', ''), scalar, { maxKeys: 2 }),
    },
  );
}

/** Valid-looking values for fields the schema alone cannot describe (a pattern, a format, a refinement). */
const SAMPLE_BY_NAME: Record<string, string> = {
  email: 'fuzz@shop.example',
  contactEmail: 'fuzz@shop.example',
  phone: '+12015550123',
  telPhone: '+12015550123',
  password: 'correct-horse-7',
  oldPassword: 'correct-horse-7',
  newPassword: 'correct-horse-8',
  code: '123456',
  resource_name: 'customers/1234567890',
  account_id: 'act_1',
  redirect: '/app',
  plan: 'Starter',
  shop: 'fuzz.myshopify.com',
};

/** A value the schema accepts, as far as a schema can say: the base that mutations start from. */
export function sampleOf(schema: JsonSchema, ids: FuzzIds, name = ''): unknown {
  const branches = (schema.anyOf ?? schema.oneOf ?? schema.allOf) as JsonSchema[] | undefined;
  if (branches?.length) return sampleOf(branches[0]!, ids, name);
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  switch (schema.type) {
    case 'object': {
      // Optional fields too: a refinement may need one of them, and dropping fields is a mutation.
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(
        Object.entries(properties).map(([key, property]) => [key, sampleOf(property, ids, key)]),
      );
    }
    case 'array':
      return [sampleOf((schema.items ?? {}) as JsonSchema, ids, name)];
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
    case 'boolean':
      return true;
    case 'string': {
      if (schema.format === 'uuid') return ids.own;
      const sample = SAMPLE_BY_NAME[name] ?? 'fuzz';
      const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
      return sample.padEnd(minLength, 'x');
    }
    default:
      return null;
  }
}

type JsonPath = (string | number)[];

function pathsOf(value: unknown, at: JsonPath = []): JsonPath[] {
  const here = [at];
  if (Array.isArray(value)) return here.concat(...value.map((item, index) => pathsOf(item, [...at, index])));
  if (typeof value === 'object' && value !== null)
    return here.concat(...Object.entries(value).map(([key, item]) => pathsOf(item, [...at, key])));
  return here;
}

function valueAt(value: unknown, path: JsonPath): unknown {
  return path.reduce<unknown>((at, key) => (at as Record<string | number, unknown>)[key], value);
}

/** A nasty value of the same JSON type as `value`: a string for a string, a number for a number. */
function sameTypeValue(value: unknown, ids: FuzzIds): fc.Arbitrary<unknown> {
  if (typeof value === 'string') return fc.oneof(nastyString, idValue(ids));
  if (typeof value === 'number') return nastyNumber;
  return wrongValue(ids);
}

type Mutation = { kind: 'replace' | 'delete' | 'extra'; path: JsonPath; value: unknown };

function mutate(base: unknown, mutation: Mutation): unknown {
  if (typeof base !== 'object' || base === null) return base;
  if (mutation.path.length === 0) {
    if (mutation.kind === 'replace') return mutation.value;
    if (mutation.kind === 'delete') return undefined;
  }
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const key of mutation.path.slice(0, -1)) {
    const next = parent[key];
    // An earlier mutation removed or replaced this path's parent: nothing left to mutate here.
    if (typeof next !== 'object' || next === null) return copy;
    parent = next as Record<string | number, unknown>;
  }
  const last = mutation.path.at(-1);
  const target = last === undefined ? parent : parent[last];
  if (mutation.kind === 'extra') {
    if (typeof target === 'object' && target !== null && !Array.isArray(target))
      (target as Record<string, unknown>).fuzzExtra = mutation.value;
    else if (Array.isArray(target)) target.push(mutation.value);
    return copy;
  }
  if (Array.isArray(parent) && mutation.kind === 'delete') parent.splice(last as number, 1);
  else if (mutation.kind === 'delete') delete parent[last!];
  else parent[last!] = mutation.value;
  return copy;
}

/** One to three mutations of a valid-looking body: a field replaced, dropped or added; or a wrong body. */
export function bodyArbitrary(base: unknown, ids: FuzzIds): fc.Arbitrary<unknown> {
  const paths = pathsOf(base);
  const mutation: fc.Arbitrary<Mutation> = fc.constantFrom(...paths).chain((path) =>
    fc.record({
      kind: fc.constantFrom('replace', 'replace', 'delete', 'extra'),
      path: fc.constant(path),
      // A value of the same type gets past the type check to the code behind it, so it comes first.
      value: fc.oneof({ weight: 2, arbitrary: sameTypeValue(valueAt(base, path), ids) }, wrongValue(ids)),
    }),
  );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(base) },
    {
      weight: 6,
      arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }).map((all) => all.reduce(mutate, base)),
    },
    { weight: 1, arbitrary: wrongValue(ids) },
  );
}

export type QueryValue = string | string[];

/** A querystring for the schema's parameters: each one absent, valid-looking, nasty, numeric or repeated. */
export function queryArbitrary(
  schema: JsonSchema | null,
  ids: FuzzIds,
): fc.Arbitrary<Record<string, QueryValue>> {
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const value = (name: string, property: JsonSchema): fc.Arbitrary<QueryValue> => {
    const one = fc.oneof(
      { weight: 3, arbitrary: fc.constant(String(sampleOf(property, ids, name))) },
      nastyString,
      nastyNumber.map(String),
      idValue(ids),
    );
    return fc.oneof(
      { weight: 4, arbitrary: one },
      { weight: 1, arbitrary: fc.array(one, { minLength: 2, maxLength: 3 }) },
    );
  };
  const known = fc.record(
    Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [
        name,
        fc.option(value(name, property), { nil: undefined, freq: 4 }),
      ]),
    ),
  );
  const extra = fc.dictionary(fc.constantFrom('fuzzExtra', '__proto__', 'page[]'), nastyString, {
    maxKeys: 1,
  });
  return fc.tuple(known, extra).map(([own, more]) => {
    const query: Record<string, QueryValue> = {};
    for (const [name, item] of Object.entries({ ...more, ...own }))
      if (item !== undefined) query[name] = item;
    return query;
  });
}

/** `?a=1&a=2` from `{ a: ['1', '2'] }`, percent-encoded, so NUL travels as %00. */
export function queryString(query: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [name, item] of Object.entries(query))
    for (const one of Array.isArray(item) ? item : [item]) params.append(name, one);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Bodies no JSON parser should take kindly to, with the content type they are sent under. */
export function rawBodies(base: unknown): { contentType: string; payload: string; tooLarge?: true }[] {
  const json = JSON.stringify(base ?? {});
  return [
    { contentType: 'application/json', payload: '{"a":' },
    { contentType: 'application/json', payload: '' },
    { contentType: 'application/json', payload: 'null' },
    { contentType: 'application/json', payload: '[]' },
    { contentType: 'application/json', payload: '{"__proto__":{"admin":true}}' },
    { contentType: 'application/json', payload: '{"constructor":{"prototype":{"admin":true}}}' },
    { contentType: 'application/json; charset=latin1', payload: json },
    { contentType: 'text/plain', payload: json },
    { contentType: 'application/x-www-form-urlencoded', payload: 'a=1&b=2' },
    { contentType: 'multipart/form-data; boundary=x', payload: '--x\r\n\r\n--x--' },
    {
      contentType: 'application/json',
      payload: JSON.stringify({ ...(base as object), fuzzExtra: 'x'.repeat(OVER_BODY_LIMIT) }),
      tooLarge: true,
    },
  ];
}

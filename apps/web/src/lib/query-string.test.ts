import { describe, expect, it } from 'vitest';
import { pageFromQuery, parseQuery, stringifyQuery } from './query-string.ts';

describe('parseQuery', () => {
  it('ignores the leading question mark', () => {
    expect(parseQuery('?a=1&b=two')).toEqual({ a: '1', b: 'two' });
    expect(parseQuery('a=1&b=two')).toEqual({ a: '1', b: 'two' });
  });

  it('returns an empty object for an empty search', () => {
    expect(parseQuery('')).toEqual({});
    expect(parseQuery('?')).toEqual({});
  });

  it('decodes values once', () => {
    const redirect = JSON.stringify({ auth: 'false', key: 'k 1' });
    expect(parseQuery(`?redirect=${encodeURIComponent(redirect)}`).redirect).toBe(redirect);
    expect(parseQuery('?q=a+b').q).toBe('a b');
  });

  it('keeps a key without a value as an empty string and the first of repeated keys', () => {
    expect(parseQuery('?reset&x=1&x=2')).toEqual({ reset: '', x: '1' });
  });

  it('does not treat a ? later in the string as a prefix', () => {
    expect(parseQuery('??a=1')).toEqual({ '?a': '1' });
  });
});

describe('stringifyQuery', () => {
  it('builds a search string from the defined values', () => {
    expect(stringifyQuery({ a: '1', b: undefined, c: null, d: '', e: 5 })).toBe('?a=1&e=5');
    expect(stringifyQuery({})).toBe('');
  });

  it('round-trips through parseQuery', () => {
    const query = { redirect: '{"auth":"false","key":"a&b=c"}', planExpiresin: '170' };
    expect(parseQuery(stringifyQuery(query))).toEqual(query);
  });
});

describe('parseQuery with odd input', () => {
  it('keeps malformed percent-encoding as typed instead of throwing', () => {
    expect(parseQuery('?a=%E0%A4%A')).toEqual({ a: '%E0%A4%A' });
  });

  it('does not let a key reach the object prototype', () => {
    const query = parseQuery('?__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(query)).toBe(Object.prototype);
    expect(query.constructor).toBe('y');
  });
});

describe('pageFromQuery', () => {
  it('reads whole page numbers from 1 and falls back to the first page', () => {
    expect(pageFromQuery('3')).toBe(3);
    expect(pageFromQuery(undefined)).toBe(1);
    expect(pageFromQuery('0')).toBe(1);
    expect(pageFromQuery('2.5')).toBe(1);
    expect(pageFromQuery('abc')).toBe(1);
  });
});

import Cookies from 'js-cookie';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCookies } from './cookies.ts';

const VALUES = {
  token: 'aB3_-xYz0123456789abcdef',
  spaced: 'a value with spaces',
  unicode: 'façade ✓ 東京',
  equals: 'a=b=c',
  percent: '100% sure',
  quoted: '"quoted"',
  semicolon: 'one;two',
  'odd name ✓': 'x',
};

describe('parseCookies()', () => {
  afterEach(() => {
    for (const name of Object.keys(Cookies.get())) Cookies.remove(name, { path: '/' });
  });

  it('reads what js-cookie writes as js-cookie reads it', () => {
    for (const [name, value] of Object.entries(VALUES)) Cookies.set(name, value, { path: '/' });
    expect(parseCookies(document.cookie)).toEqual(Cookies.get());
    expect(parseCookies(document.cookie)).toMatchObject(VALUES);
  });

  it('keeps the first of a name, drops quotes, and leaves out a cookie that does not decode, as js-cookie does', () => {
    const header = 'a=1; a=2; b="x%20y"; %E0%A4%A=bad; c=%E0%A4%A; d=; e';
    expect(parseCookies(header)).toEqual({ a: '1', b: 'x y', d: '', e: '' });
    expect(parseCookies('')).toEqual({});
  });
});

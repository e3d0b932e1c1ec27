import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { email, verifyPasswordBody } from './auth.ts';
import { EMAIL_PATTERN, readEmail, resetCodeProblem } from './auth-values.ts';

// Typed as people type them: padded, capitals, near misses, and one past the length limit.
const ADDRESSES = [
  'ana@shop.com',
  '  Ana.Lopez@Shop.COM ',
  "o'brien+alerts@mail.example.co.uk",
  'first.last-name_1@sub-domain.example',
  '',
  '   ',
  'ana',
  'ana@',
  '@shop.com',
  'ana@shop',
  'ana@shop.c',
  'ana@@shop.com',
  'ana lopez@shop.com',
  '.ana@shop.com',
  'ana.@shop.com',
  'ana..lopez@shop.com',
  'ana@-shop.com',
  'ana@shop..com',
  'ana@shop.com.',
  'ana@shöp.com',
  `${'a'.repeat(241)}@shop.example`,
  `${'a'.repeat(242)}@shop.example`,
];

describe('readEmail()', () => {
  it("is zod's own email pattern", () => {
    expect(EMAIL_PATTERN.source).toBe(z.regexes.email.source);
    expect(EMAIL_PATTERN.flags).toBe(z.regexes.email.flags);
  });

  it('reads every address as the email schema does: the same address, or the same first message', () => {
    for (const typed of ADDRESSES) {
      const parsed = email.safeParse(typed);
      const expected = parsed.success
        ? { ok: true, address: parsed.data }
        : { ok: false, message: parsed.error.issues[0]?.message };
      expect(readEmail(typed), JSON.stringify(typed)).toEqual(expected);
    }
  });

  it('tells a valid address from an invalid one in that list', () => {
    expect(readEmail('  Ana.Lopez@Shop.COM ')).toEqual({ ok: true, address: 'ana.lopez@shop.com' });
    expect(readEmail('ana@shop')).toEqual({
      ok: false,
      message: 'Enter a valid email address, like name@shop.com.',
    });
    expect(readEmail(`${'a'.repeat(242)}@shop.example`)).toEqual({
      ok: false,
      message: 'An email address has at most 254 characters.',
    });
  });
});

describe('resetCodeProblem()', () => {
  it('judges every code as verifyPasswordBody does, with its message', () => {
    const code = verifyPasswordBody.shape.code;
    for (const typed of ['123456', ' 654321 ', '12345', '1234567', 'abcdef', '12 345', '', '１２３４５６']) {
      const parsed = code.safeParse(typed);
      const expected = parsed.success ? null : parsed.error.issues[0]?.message;
      expect(resetCodeProblem(typed), JSON.stringify(typed)).toBe(expected);
    }
    expect(resetCodeProblem('12345')).toBe('The code has 6 digits.');
  });
});

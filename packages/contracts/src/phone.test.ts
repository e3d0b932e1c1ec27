import { describe, expect, it } from 'vitest';
import { isSupportedPhone, parseE164, PHONE_COUNTRIES, PHONE_PLANS, toE164 } from './phone.ts';

describe('phone numbers', () => {
  it('offers exactly the nine countries of the spec', () => {
    expect([...PHONE_COUNTRIES].sort()).toEqual(['br', 'ca', 'de', 'es', 'fr', 'gb', 'it', 'mx', 'us']);
  });

  it("turns each country's example into E.164 and back", () => {
    for (const country of PHONE_COUNTRIES) {
      const { dialCode, example } = PHONE_PLANS[country];
      const e164 = toE164(country, example);
      expect(e164, country).toBe(`+${dialCode}${example}`);
      expect(parseE164(e164!), country).toEqual({ country, national: example });
    }
  });

  it('accepts what people type: spaces, dashes, brackets and a trunk 0', () => {
    expect(toE164('us', '(201) 555-0123')).toBe('+12015550123');
    expect(toE164('gb', '07400 123456')).toBe('+447400123456');
    expect(toE164('fr', '06 12 34 56 78')).toBe('+33612345678');
    expect(toE164('de', '+49 151 23456789')).toBe('+4915123456789');
  });

  it('keeps the leading 0 of Italian landlines, which is part of the number', () => {
    expect(toE164('it', '06 1234 5678')).toBe('+390612345678');
  });

  it('tells US and Canadian numbers apart by area code', () => {
    expect(parseE164('+15062345678')?.country).toBe('ca');
    expect(parseE164('+12015550123')?.country).toBe('us');
    expect(toE164('us', '506 234 5678')).toBeNull();
  });

  it('refuses numbers of other countries and malformed ones', () => {
    expect(isSupportedPhone('+81312345678')).toBe(false);
    expect(isSupportedPhone('12015550123')).toBe(false);
    expect(isSupportedPhone('+1201555')).toBe(false);
    expect(toE164('es', '512345678')).toBeNull();
    expect(toE164('fr', '+44612345678')).toBeNull();
  });
});

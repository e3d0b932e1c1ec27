/**
 * The nine countries the spec allows for phone entry, and the checks that keep stored numbers in E.164.
 * National-number lengths follow each country's numbering plan (ITU-T E.164 national assignments).
 */
export const PHONE_COUNTRIES = ['us', 'gb', 'fr', 'mx', 'br', 'it', 'de', 'ca', 'es'] as const;
export type PhoneCountry = (typeof PHONE_COUNTRIES)[number];

interface CountryPlan {
  name: string;
  dialCode: string;
  /** The national significant number (no trunk prefix such as a leading 0). */
  pattern: RegExp;
  example: string;
}

export const PHONE_PLANS: Record<PhoneCountry, CountryPlan> = {
  us: { name: 'United States', dialCode: '1', pattern: /^[2-9]\d{2}[2-9]\d{6}$/, example: '2015550123' },
  gb: { name: 'United Kingdom', dialCode: '44', pattern: /^[1-9]\d{8,9}$/, example: '7400123456' },
  fr: { name: 'France', dialCode: '33', pattern: /^[1-9]\d{8}$/, example: '612345678' },
  mx: { name: 'Mexico', dialCode: '52', pattern: /^[1-9]\d{9}$/, example: '2221234567' },
  br: { name: 'Brazil', dialCode: '55', pattern: /^[1-9]\d{9,10}$/, example: '11961234567' },
  it: { name: 'Italy', dialCode: '39', pattern: /^[03]\d{5,10}$/, example: '3123456789' },
  de: { name: 'Germany', dialCode: '49', pattern: /^[1-9]\d{5,13}$/, example: '15123456789' },
  ca: { name: 'Canada', dialCode: '1', pattern: /^[2-9]\d{2}[2-9]\d{6}$/, example: '5062345678' },
  es: { name: 'Spain', dialCode: '34', pattern: /^[6-9]\d{8}$/, example: '612345678' },
};

// +1 numbers are shared by the US and Canada; the area code tells them apart.
const CANADIAN_AREA_CODES = new Set(
  '204 226 236 249 250 257 263 289 306 343 354 365 367 368 382 387 403 416 418 428 431 437 438 450 460 468 474 506 514 519 548 579 581 584 587 604 613 639 647 672 683 705 709 742 753 778 780 782 807 819 825 867 873 879 902 905 942'.split(
    ' ',
  ),
);

/** Builds an E.164 number from a country and what the person typed (spaces, dashes and a trunk 0 allowed). */
export function toE164(country: PhoneCountry, typed: string): string | null {
  let national = typed.replace(/[\s().-]/g, '');
  const plan = PHONE_PLANS[country];
  if (national.startsWith('+')) {
    if (!national.startsWith(`+${plan.dialCode}`)) return null;
    national = national.slice(plan.dialCode.length + 1);
  }
  if (country !== 'it' && national.startsWith('0')) national = national.slice(1);
  if (!plan.pattern.test(national)) return null;
  if (country === 'ca' && !CANADIAN_AREA_CODES.has(national.slice(0, 3))) return null;
  if (country === 'us' && CANADIAN_AREA_CODES.has(national.slice(0, 3))) return null;
  return `+${plan.dialCode}${national}`;
}

/** Splits a stored E.164 number back into its country and national number, or null when it is none of the nine. */
export function parseE164(value: string): { country: PhoneCountry; national: string } | null {
  if (!/^\+\d{7,15}$/.test(value)) return null;
  for (const country of PHONE_COUNTRIES) {
    const { dialCode } = PHONE_PLANS[country];
    if (!value.startsWith(`+${dialCode}`)) continue;
    const national = value.slice(dialCode.length + 1);
    if (toE164(country, national) === value) return { country, national };
  }
  return null;
}

export function isSupportedPhone(value: string): boolean {
  return parseE164(value) !== null;
}

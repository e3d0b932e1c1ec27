import { createHash } from 'node:crypto';
import { StripeActionError } from './stripe-errors.ts';

/**
 * Stripe's test cards, as the hosted pages take them: what a number does when it is charged, and the checks
 * Stripe.js makes before anything is charged (Luhn, expiry, CVC).
 */
export type CardBehaviour =
  /** Every charge succeeds. */
  | 'succeeds'
  /** Every charge is declined with the card's decline. */
  | 'declines'
  /** Attaching it (and the first charge at Checkout) succeeds; every later charge is declined. */
  | 'fails-later';

export interface Decline {
  code: string;
  declineCode: string;
  message: string;
}

export interface TestCard {
  number: string;
  behaviour: CardBehaviour;
  description: string;
  decline?: Decline;
}

const GENERIC_DECLINE: Decline = {
  code: 'card_declined',
  declineCode: 'generic_decline',
  message: 'Your card was declined.',
};

export const TEST_CARDS: readonly TestCard[] = [
  { number: '4242424242424242', behaviour: 'succeeds', description: 'Succeeds' },
  { number: '5555555555554444', behaviour: 'succeeds', description: 'Succeeds (Mastercard)' },
  {
    number: '4000000000000002',
    behaviour: 'declines',
    description: 'Declined (card_declined, generic_decline)',
    decline: GENERIC_DECLINE,
  },
  {
    number: '4000000000009995',
    behaviour: 'declines',
    description: 'Declined (insufficient_funds)',
    decline: {
      code: 'card_declined',
      declineCode: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    },
  },
  {
    number: '4000000000000341',
    behaviour: 'fails-later',
    description: 'Accepted at checkout; every later charge (renewals) is declined',
    decline: GENERIC_DECLINE,
  },
];

/** A real (Luhn-valid) card that is not a test card: Stripe's test mode declines it. */
const LIVE_CARD_DECLINE: Decline = {
  code: 'card_declined',
  declineCode: 'test_mode_live_card',
  message:
    'Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
};

export interface CardInput {
  number: string;
  /** `MM / YY`, `MM/YY` or `MM / YYYY`. */
  expiry: string;
  cvc: string;
  name?: string;
}

/** The card as a PaymentMethod keeps it. */
export interface Card {
  brand: 'visa' | 'mastercard' | 'amex' | 'discover' | 'unknown';
  last4: string;
  expMonth: number;
  expYear: number;
  behaviour: CardBehaviour;
  decline: Decline | null;
  fingerprint: string;
}

/** Which field of a payment form refused input is about, so a page can point at it. */
export type PaymentField = 'email' | 'name' | 'number' | 'expiry' | 'cvc';

/** Input a person typed that Stripe.js refuses before anything is charged. */
export class FieldError extends StripeActionError {
  constructor(
    readonly field: PaymentField,
    message: string,
  ) {
    super('INVALID', message);
  }
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function brandOf(digits: string): Card['brand'] {
  if (digits.startsWith('4')) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^6(011|5)/.test(digits)) return 'discover';
  return 'unknown';
}

/** A year that is always ahead, for callers (tests, the JSON API) that do not care about the expiry. */
export function defaultExpiry(now: number): string {
  return `12 / ${String((new Date(now).getUTCFullYear() + 5) % 100).padStart(2, '0')}`;
}

/** Checks a card as Stripe.js does before paying; throws FieldError with Stripe's wording. */
export function readCard(input: CardInput, now: number): Card {
  const digits = input.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) {
    throw new FieldError('number', 'Your card number is invalid.');
  }
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.expiry);
  const month = Number(expiry?.[1]);
  if (!expiry || month < 1 || month > 12) {
    throw new FieldError('expiry', "Your card's expiration date is incomplete.");
  }
  const year = expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
  const today = new Date(now);
  if (year < today.getUTCFullYear() || (year === today.getUTCFullYear() && month < today.getUTCMonth() + 1)) {
    throw new FieldError('expiry', 'Your card has expired.');
  }
  const amex = brandOf(digits) === 'amex';
  if (!(amex ? /^\d{4}$/ : /^\d{3}$/).test(input.cvc.trim())) {
    throw new FieldError('cvc', "Your card's security code is incomplete.");
  }
  const known = TEST_CARDS.find((card) => card.number === digits);
  return {
    brand: brandOf(digits),
    last4: digits.slice(-4),
    expMonth: month,
    expYear: year,
    behaviour: known?.behaviour ?? 'declines',
    decline: known ? (known.decline ?? null) : LIVE_CARD_DECLINE,
    // Stripe's fingerprint is one per card number; any stable digest of it plays the same part.
    fingerprint: createHash('sha256').update(digits).digest('base64url').slice(0, 16),
  };
}

/** What charging the card does: null when it is paid. The first charge at Checkout is the only "attach" charge. */
export function chargeCard(card: Card, at: 'checkout' | 'later'): Decline | null {
  if (card.behaviour === 'succeeds') return null;
  if (card.behaviour === 'fails-later' && at === 'checkout') return null;
  return card.decline ?? GENERIC_DECLINE;
}

export function cardLabel(card: { brand: string; last4: string }): string {
  const brand = card.brand === 'unknown' ? 'Card' : card.brand[0]!.toUpperCase() + card.brand.slice(1);
  return `${brand} ending ${card.last4}`;
}

/** "4242 4242 4242 4242". */
export function spacedNumber(number: string): string {
  return number.replace(/(\d{4})(?=\d)/g, '$1 ');
}

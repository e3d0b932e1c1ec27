import { escapeHtml } from './html.ts';
import { spacedNumber, TEST_CARDS, type PaymentField } from './stripe-cards.ts';

/** What the Stripe pages share: the card fields, the test card list, dates and statuses as people read them. */

export interface PaymentValues {
  email?: string;
  name?: string;
  number?: string;
  expiry?: string;
  cvc?: string;
}

export interface FormError {
  field: PaymentField | null;
  message: string;
}

type Body = Record<string, string | undefined> | undefined;

export function paymentValues(body: Body): PaymentValues {
  return {
    email: body?.email ?? '',
    name: body?.name ?? '',
    number: body?.number ?? '',
    expiry: body?.expiry ?? '',
    cvc: body?.cvc ?? '',
  };
}

/** The alert above a form; `field` marks the input it is about. */
export function errorAlert(error: FormError | null, id: string): string {
  return error
    ? `<p id="${id}" role="alert" class="notice"><strong>${escapeHtml(error.message)}</strong></p>`
    : '';
}

function input(
  field: PaymentField,
  idPrefix: string,
  error: FormError | null,
  attributes: string,
  value: string | undefined,
): string {
  const invalid = error?.field === field ? ` aria-invalid="true" aria-describedby="${idPrefix}-error"` : '';
  return `<input id="${idPrefix}-${field}" name="${field}" ${attributes} value="${escapeHtml(value ?? '')}"${invalid}>`;
}

/** Card number, expiry, CVC and the cardholder's name, labelled and with the autocomplete browsers know. */
export function cardFields(idPrefix: string, values: PaymentValues, error: FormError | null): string {
  const field = (name: PaymentField, attributes: string, value?: string) =>
    input(name, idPrefix, error, attributes, value);
  return `<fieldset>
<legend>Card information</legend>
<label for="${idPrefix}-number">Card number</label>
${field('number', 'type="text" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" required', values.number)}
<label for="${idPrefix}-expiry">Expiry (MM / YY)</label>
${field('expiry', 'type="text" inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY" required', values.expiry)}
<label for="${idPrefix}-cvc">CVC</label>
${field('cvc', 'type="text" inputmode="numeric" autocomplete="cc-csc" placeholder="123" maxlength="4" required', values.cvc)}
</fieldset>
<label for="${idPrefix}-name">Cardholder name</label>
${field('name', 'type="text" autocomplete="cc-name" required', values.name)}`;
}

export function emailField(
  idPrefix: string,
  value: string,
  locked: boolean,
  error: FormError | null,
): string {
  const hint = locked
    ? `<p id="${idPrefix}-email-hint" class="muted">The email of your Vigil account.</p>`
    : '';
  const attributes = `type="email" autocomplete="email" required${locked ? ` readonly aria-describedby="${idPrefix}-email-hint"` : ''}`;
  return `<label for="${idPrefix}-email">Email</label>
${input('email', idPrefix, error, attributes, value)}${hint}`;
}

export function testCardsList(): string {
  const items = TEST_CARDS.map(
    (card) => `<li><code>${spacedNumber(card.number)}</code> — ${escapeHtml(card.description)}</li>`,
  ).join('');
  return `<ul>${items}</ul>
<p class="muted">Any expiry in the future (e.g. 12 / 34) and any 3-digit CVC. Other valid numbers are declined as live cards;
a number that fails the checksum is invalid.</p>`;
}

/** "12 Mar 2026". */
export function day(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

export function when(iso: string): string {
  return `${new Date(iso).toLocaleString('en-GB', { timeZone: 'UTC' })} UTC`;
}

const STATUS_LABELS: Record<string, string> = {
  active: 'Active',
  past_due: 'Past due',
  canceled: 'Canceled',
  incomplete: 'Incomplete',
  incomplete_expired: 'Expired',
  unpaid: 'Unpaid',
  draft: 'Draft',
  open: 'Open',
  paid: 'Paid',
  void: 'Void',
  uncollectible: 'Uncollectible',
};

export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status;
}

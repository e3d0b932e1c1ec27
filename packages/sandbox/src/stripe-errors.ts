/**
 * Stripe's API error, as the REST API answers it: `{ error: { type, code, message, param, decline_code,
 * doc_url } }` with the HTTP status Stripe uses for it. The SDK turns the type into its error classes.
 */
export class StripeApiError extends Error {
  override readonly name = 'StripeApiError';
  constructor(
    readonly status: 400 | 401 | 402 | 404 | 500,
    readonly type: 'invalid_request_error' | 'card_error' | 'idempotency_error' | 'api_error',
    message: string,
    readonly code?: string,
    readonly param?: string,
    readonly declineCode?: string,
  ) {
    super(message);
  }

  toJSON(): { error: Record<string, string> } {
    const error: Record<string, string> = { message: this.message, type: this.type };
    if (this.code) {
      error.code = this.code;
      error.doc_url = `https://stripe.com/docs/error-codes/${this.code.replaceAll('_', '-')}`;
    }
    if (this.param) error.param = this.param;
    if (this.declineCode) error.decline_code = this.declineCode;
    return { error };
  }
}

/** `No such customer: 'cus_…'`, Stripe's answer for an id it does not know (404 resource_missing). */
export function noSuch(kind: string, id: string, param = 'id'): StripeApiError {
  return new StripeApiError(
    404,
    'invalid_request_error',
    `No such ${kind}: '${id}'`,
    'resource_missing',
    param,
  );
}

export function missingParam(param: string): StripeApiError {
  return new StripeApiError(
    400,
    'invalid_request_error',
    `Missing required param: ${param}.`,
    'parameter_missing',
    param,
  );
}

export function invalidParam(message: string, param?: string, code?: string): StripeApiError {
  return new StripeApiError(400, 'invalid_request_error', message, code, param);
}

/** A control action (a page's button, the JSON API) that does not fit: an unknown object, or bad input. */
export class StripeActionError extends Error {
  override readonly name = 'StripeActionError';
  constructor(
    readonly code: 'NOT_FOUND' | 'CONFLICT' | 'INVALID',
    message: string,
  ) {
    super(message);
  }
}

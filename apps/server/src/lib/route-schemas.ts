import { errorBody } from '@vigil/contracts';

const ERROR_RESPONSES = {
  400: errorBody.describe(
    'INVALID: the request is not valid; `message` says why, `details` lists each field.',
  ),
  401: errorBody.describe('UNAUTHORIZED: no valid session. Sign in again.'),
  403: errorBody.describe('FORBIDDEN: the plan does not allow it; `message` names the plan and its limit.'),
  404: errorBody.describe('NOT_FOUND'),
  409: errorBody.describe('CONFLICT'),
  413: errorBody.describe('PAYLOAD_TOO_LARGE: the body is over 64 KiB.'),
  429: errorBody.describe('RATE_LIMITED: too many attempts; Retry-After says when to try again.'),
  500: errorBody.describe('INTERNAL'),
  503: errorBody.describe('UNAVAILABLE: a service Vigil depends on is not answering.'),
} as const;

type ErrorStatus = keyof typeof ERROR_RESPONSES;

/** Error answers a route documents at /docs, beside 400 and 500, which every route can give. */
export function errorResponses<S extends ErrorStatus>(
  ...statuses: S[]
): Pick<typeof ERROR_RESPONSES, S | 400 | 500> {
  const picked: Partial<Record<ErrorStatus, unknown>> = {
    400: ERROR_RESPONSES[400],
    500: ERROR_RESPONSES[500],
  };
  for (const status of statuses) picked[status] = ERROR_RESPONSES[status];
  return picked as Pick<typeof ERROR_RESPONSES, S | 400 | 500>;
}

/** The OpenAPI security requirement of routes that need a session. */
export const SESSION_SECURITY = [{ session: [] }];

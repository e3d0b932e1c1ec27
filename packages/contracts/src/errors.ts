import { z } from 'zod';

/** The only error codes the API answers with; `httpStatusOf` is the one place they become statuses. */
export const ERROR_CODES = [
  'INVALID',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'UNAVAILABLE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

const STATUS: Record<ErrorCode, number> = {
  INVALID: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

export function httpStatusOf(code: ErrorCode): number {
  return STATUS[code];
}

export const errorDetail = z.object({ path: z.string(), message: z.string() });
export type ErrorDetail = z.infer<typeof errorDetail>;

export const errorBody = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  details: z.array(errorDetail).optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { httpStatusOf, type ErrorBody, type ErrorCode, type ErrorDetail } from '@vigil/contracts';
import { isAppError } from './app-error.ts';
import { setBareSecurityHeaders } from './security-headers.ts';
import { describeIssues, RequestValidationError } from './validation.ts';

const INTERNAL_MESSAGE = 'Something went wrong on our side. Try again in a moment.';

/** Fastify's own request errors, in words a client developer can act on. */
const FASTIFY_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The request body is too large: send at most 64 KiB.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'INVALID',
    message: 'Send JSON, with the header Content-Type: application/json.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'INVALID',
    message: 'The Content-Length header does not match the body sent.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'INVALID', message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'INVALID', message: 'Send the request body as a JSON object.' },
  FST_ERR_CTP_INVALID_TYPE: { code: 'INVALID', message: 'The Content-Type header is not valid.' },
  FST_ERR_BAD_URL: { code: 'INVALID', message: 'The address is not a valid URL.' },
  FST_ERR_ASYNC_CONSTRAINT: { code: 'INVALID', message: 'The request could not be routed.' },
};

/**
 * Fastify's `frameworkErrors`: a URL it cannot parse is refused before routing and hooks, so it gets the
 * error body and the strict headers here.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  setBareSecurityHeaders(reply);
  const known = FASTIFY_ERRORS[error.code] ?? {
    code: 'INVALID' as const,
    message: 'The request is not valid.',
  };
  return send(reply, body(known.code, known.message));
}

function body(code: ErrorCode, message: string, details?: ErrorDetail[]): ErrorBody {
  return details?.length ? { code, message, details } : { code, message };
}

function send(reply: FastifyReply, payload: ErrorBody) {
  return reply.code(httpStatusOf(payload.code)).type('application/json; charset=utf-8').send(payload);
}

/**
 * The one place errors become HTTP answers: `{ code, message, details? }`, status from contracts' httpStatusOf.
 * Unknown errors are logged in full and answered with a sentence that reveals nothing of the internals.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (isAppError(error)) {
      if (error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
      if (httpStatusOf(error.code) >= 500) request.log.error({ err: error.cause ?? error }, error.message);
      return send(reply, body(error.code, error.message, error.details));
    }
    if (error instanceof RequestValidationError) {
      const { message, details } = describeIssues(error.issues);
      return send(reply, body('INVALID', message, details));
    }
    const known = error.code ? FASTIFY_ERRORS[error.code] : undefined;
    if (known) return send(reply, body(known.code, known.message));

    const status = error.statusCode ?? 500;
    if (status === 404) return send(reply, body('NOT_FOUND', 'Nothing is here.'));
    if (status === 413)
      return send(reply, body('PAYLOAD_TOO_LARGE', FASTIFY_ERRORS.FST_ERR_CTP_BODY_TOO_LARGE!.message));
    if (status === 429)
      return send(reply, body('RATE_LIMITED', 'Too many requests. Wait a minute, then try again.'));
    if (status >= 400 && status < 500) {
      request.log.info({ err: error }, 'client error');
      return send(reply, body('INVALID', 'The request is not valid.'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, body('INTERNAL', INTERNAL_MESSAGE));
  });

  app.setNotFoundHandler((request, reply) =>
    send(
      reply,
      body(
        'NOT_FOUND',
        `There is no ${request.method} ${(request.url.split('?')[0] ?? '').slice(0, 200)} here.`,
      ),
    ),
  );
}

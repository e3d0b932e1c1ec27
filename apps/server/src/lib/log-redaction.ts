import type { FastifyRequest, FastifyServerOptions } from 'fastify';

export const REDACTED = '[redacted]';

/**
 * Query parameters that carry a credential: the acknowledge link's `token` (valid 7 days), the OAuth `code`
 * and `state` providers send back to /app/oauth, and anything named like a token, secret, password, key,
 * signature or verifier (none is read as a secret today; a future one is covered).
 */
const SENSITIVE_PARAMETER =
  /^(code|state|key|sig|auth|hmac)$|token|secret|password|signature|api_?key|verifier/i;

function isSensitive(rawName: string): boolean {
  let name = rawName;
  try {
    name = decodeURIComponent(rawName.replace(/\+/g, ' '));
  } catch {
    // A malformed escape is logged as sent; its raw spelling is still matched.
  }
  return SENSITIVE_PARAMETER.test(name);
}

/** The URL with the value of each sensitive query parameter replaced by `[redacted]`, the rest as sent. */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return equals !== -1 && isSensitive(name) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, start)}?${query}`;
}

/** Fastify's own request serializer (method, url, host, address), with the URL redacted. */
function serializeRequest(request: FastifyRequest) {
  const version = request.headers?.['accept-version'];
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: typeof version === 'string' ? version : undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * Adds the redacting request serializer to logger options, whoever wrote them (config or a test), so no
 * request log line ever holds a link's token.
 */
export function withRedactedUrls(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return logger;
  const options = logger === true ? {} : logger;
  return { ...options, serializers: { ...options.serializers, req: serializeRequest } };
}

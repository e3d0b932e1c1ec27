import type { WebsiteConditions } from '@vigil/contracts';
import { DAY_MS } from '../../lib/clock.ts';
import type { Checker, CheckOutcome, ConditionResult } from '../../checks/checker.ts';
import { httpGet, type HttpAnswer } from './http-get.ts';

/** How long a check waits when the monitor's timeout condition is off. */
export const DEFAULT_TIMEOUT_MS = 10_000;
export const MAX_REDIRECTS = 5;
/** The keyword and password-page conditions read at most this much of the body. */
export const MAX_BODY_BYTES = 1024 * 1024;
const USER_AGENT = 'Vigil-Monitor/1.0 (+https://vigil.local)';

export interface WebsiteCheckerOptions {
  /**
   * False accepts certificates no authority vouches for (self-signed). Tests use it to serve certificates
   * that expire soon; in production it stays true, so an untrusted certificate is a failed check.
   */
  rejectUnauthorized?: boolean;
}

interface Certificate {
  validTo: Date;
}

interface Answer {
  url: URL;
  statusCode: number;
  responseMs: number;
  body: string | null;
  certificate: Certificate | null;
}

/** A request that got no HTTP answer. */
class Unanswered extends Error {
  constructor(
    readonly kind: 'timeout' | 'connection' | 'certificate-expired',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Website monitors: one GET (redirects followed) judged against each enabled condition.
 *
 * - Response time is measured to the final response's headers, so it does not depend on page size.
 * - A timeout counts against the timeout condition (else HTTP status); a refused connection or bad TLS
 *   against HTTP status (else timeout); the conditions that need an answer are then not judged.
 * - The password page is the final address's path being /password (Shopify's storefront lock redirects
 *   there), or a form posting to /password in the page.
 * - The certificate is the one the last https hop presented; an expired one fails the expiry condition.
 */
export function createWebsiteChecker(options: WebsiteCheckerOptions = {}): Checker {
  const rejectUnauthorized = options.rejectUnauthorized ?? true;
  return {
    service: 'website',
    // At most 30 s (the timeout condition's limit), so the engine's deadline is never needed.
    timeoutMs: (conditions) => timeoutOf(conditions as WebsiteConditions),
    async check({ target, conditions: stored, now }) {
      const url = new URL((target as { url: string }).url);
      const conditions = stored as WebsiteConditions;
      const timeoutMs = timeoutOf(conditions);
      const needsBody =
        (conditions.keyword.enabled && conditions.keyword.keyword.length > 0) ||
        conditions.password_page.enabled;
      try {
        const answer = await fetchFollowing(url, {
          timeoutMs,
          readBody: needsBody,
          rejectUnauthorized,
        });
        return judge(conditions, answer, url, now);
      } catch (error) {
        if (!(error instanceof Unanswered)) throw error;
        return unanswered(conditions, error, url, timeoutMs);
      }
    },
  };
}

function timeoutOf(conditions: WebsiteConditions): number {
  return conditions.timeout.enabled ? conditions.timeout.timeoutMs : DEFAULT_TIMEOUT_MS;
}

function judge(conditions: WebsiteConditions, answer: Answer, requested: URL, now: Date): CheckOutcome {
  const results: ConditionResult[] = [];
  const where = displayUrl(requested);
  if (conditions.http_status.enabled) {
    const ok = answer.statusCode >= 200 && answer.statusCode < 400;
    results.push({ key: 'http_status', ok, summary: `HTTP ${answer.statusCode} from ${where}` });
  }
  if (conditions.timeout.enabled) {
    results.push({ key: 'timeout', ok: true, summary: `${where} answered in ${seconds(answer.responseMs)}` });
  }
  if (conditions.keyword.enabled && conditions.keyword.keyword) {
    const { keyword, mode } = conditions.keyword;
    const found = (answer.body ?? '').toLowerCase().includes(keyword.toLowerCase());
    const ok = mode === 'missing' ? found : !found;
    results.push({
      key: 'keyword',
      ok,
      summary: found
        ? `Keyword "${keyword}" found on ${where}`
        : `Keyword "${keyword}" not found on ${where}`,
    });
  }
  if (conditions.slow_response.enabled) {
    const { thresholdMs } = conditions.slow_response;
    const ok = answer.responseMs <= thresholdMs;
    results.push({
      key: 'slow_response',
      ok,
      summary: `${where} answered in ${seconds(answer.responseMs)} (limit ${seconds(thresholdMs)})`,
    });
  }
  if (conditions.tls_expiry.enabled && answer.certificate) {
    results.push(certificateVerdict(answer.certificate.validTo, conditions.tls_expiry.days, now));
  }
  if (conditions.password_page.enabled) {
    const shown =
      /^\/password\/?$/.test(answer.url.pathname) ||
      /<form\b[^>]*\baction\s*=\s*["']?(?:https?:\/\/[^/"'>]+)?\/password["'\s>]/i.test(answer.body ?? '');
    results.push({
      key: 'password_page',
      ok: !shown,
      summary: shown ? `Password page shown at ${displayUrl(answer.url)}` : `No password page at ${where}`,
    });
  }
  return { responseMs: answer.responseMs, statusCode: answer.statusCode, conditions: results };
}

function certificateVerdict(validTo: Date, days: number, now: Date): ConditionResult {
  const date = validTo.toISOString().slice(0, 10);
  const left = Math.floor((validTo.getTime() - now.getTime()) / DAY_MS);
  if (validTo.getTime() <= now.getTime()) {
    return { key: 'tls_expiry', ok: false, summary: `Certificate expired on ${date}` };
  }
  return {
    key: 'tls_expiry',
    ok: left >= days,
    summary: `Certificate expires in ${left} ${left === 1 ? 'day' : 'days'} (${date})`,
  };
}

/** No answer: one condition carries the failure, the ones that needed the answer are not judged. */
function unanswered(
  conditions: WebsiteConditions,
  error: Unanswered,
  url: URL,
  timeoutMs: number,
): CheckOutcome {
  const enabled = (Object.keys(conditions) as (keyof WebsiteConditions)[]).filter(
    (key) => conditions[key].enabled,
  );
  const summary =
    error.kind === 'timeout'
      ? `No answer from ${displayUrl(url)} within ${seconds(timeoutMs)}`
      : error.message;
  const preference: (keyof WebsiteConditions)[] =
    error.kind === 'certificate-expired'
      ? ['tls_expiry', 'http_status', 'timeout']
      : error.kind === 'timeout'
        ? ['timeout', 'http_status']
        : ['http_status', 'timeout'];
  const carrier = preference.find((key) => enabled.includes(key)) ?? enabled[0];
  return {
    responseMs: null,
    statusCode: null,
    conditions: enabled.map((key) =>
      key === carrier ? { key, ok: false, summary } : { key, ok: null, summary: `Not checked: ${summary}` },
    ),
  };
}

interface FetchOptions {
  timeoutMs: number;
  readBody: boolean;
  rejectUnauthorized: boolean;
}

/** GET with redirects followed, all within one deadline (`timeoutMs` from the start). */
async function fetchFollowing(start: URL, options: FetchOptions): Promise<Answer> {
  const startedAt = performance.now();
  const endsAt = startedAt + options.timeoutMs;
  let url = start;
  let certificate: Certificate | null = null;
  for (let hop = 0; ; hop++) {
    const answer = await get(url, endsAt, options, start);
    if (answer.certificateValidTo) certificate = { validTo: answer.certificateValidTo };
    const location = answer.headers.get('location');
    if (isRedirect(answer.statusCode) && location && hop < MAX_REDIRECTS) {
      answer.discard();
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new Unanswered('connection', `${displayUrl(url)} redirects to an invalid address`);
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        throw new Unanswered('connection', `${displayUrl(url)} redirects to ${next.protocol} address`);
      }
      url = next;
      continue;
    }
    const responseMs = Math.round(performance.now() - startedAt);
    let body: string | null = null;
    if (options.readBody) {
      try {
        body = (await answer.readBody(MAX_BODY_BYTES)).toString('utf8');
      } catch (error) {
        throw toUnanswered(error as NodeJS.ErrnoException, start);
      }
    } else {
      answer.discard();
    }
    return { url, statusCode: answer.statusCode, responseMs, body, certificate };
  }
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

const REQUEST_HEADERS = [`user-agent: ${USER_AGENT}`, 'accept: */*', 'accept-encoding: identity'];

/** One GET on a fresh connection: reused sockets would hide DNS, connect and TLS failures. */
async function get(url: URL, endsAt: number, options: FetchOptions, requested: URL): Promise<HttpAnswer> {
  try {
    return await httpGet(url, {
      endsAt,
      rejectUnauthorized: options.rejectUnauthorized,
      headers: REQUEST_HEADERS,
    });
  } catch (error) {
    throw toUnanswered(error as NodeJS.ErrnoException, requested);
  }
}

function toUnanswered(error: NodeJS.ErrnoException, requested: URL): Unanswered {
  const where = displayUrl(requested);
  switch (error.code) {
    case 'ETIMEDOUT':
      return new Unanswered('timeout', `No answer from ${where}`);
    case 'CERT_HAS_EXPIRED':
      return new Unanswered('certificate-expired', `The certificate of ${where} has expired`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new Unanswered('connection', `${requested.hostname} does not resolve (DNS ${error.code})`);
    case 'ECONNREFUSED':
      return new Unanswered('connection', `${where} refused the connection`);
    case 'ECONNRESET':
      return new Unanswered('connection', `${where} closed the connection`);
    case 'ERR_NOT_HTTP':
    case 'ERR_HEAD_TOO_LARGE':
      return new Unanswered('connection', `${where} gave an answer that could not be read. ${error.message}`);
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return new Unanswered('connection', `The certificate of ${where} is not trusted (${error.code})`);
    default:
      return new Unanswered('connection', `Could not reach ${where} (${error.code ?? error.message})`);
  }
}

function displayUrl(url: URL): string {
  return url.pathname === '/' && !url.search ? url.origin : url.toString();
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
}

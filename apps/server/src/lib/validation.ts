import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { ErrorDetail } from '@vigil/contracts';
import type { z } from 'zod';
import { AppError } from './app-error.ts';

/** Zod issues of a request part that failed its schema; the error handler answers 400 INVALID with them. */
export class RequestValidationError extends Error {
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super('Request validation failed');
    this.name = 'RequestValidationError';
  }
}

const TYPE_NAMES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

function label(path: readonly PropertyKey[]): string {
  return path.length ? path.map(String).join('.') : 'The request body';
}

/**
 * Sentences for zod's built-in messages; the contracts' own messages ("Enter your email address.") win over
 * these because a schema's message takes precedence over a per-parse one.
 */
const friendlyError: z.core.$ZodErrorMap = (issue) => {
  const path = issue.path ?? [];
  switch (issue.code) {
    case 'invalid_type':
      if (path.length === 0) return 'Send the request body as a JSON object.';
      if (issue.input === undefined || issue.input === null) return `${label(path)} is required.`;
      return `${label(path)} must be ${TYPE_NAMES[issue.expected] ?? issue.expected}.`;
    case 'unrecognized_keys':
      return `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`;
    case 'too_big':
      return issue.origin === 'string'
        ? `${label(path)} is too long (at most ${issue.maximum} characters).`
        : `${label(path)} must be at most ${issue.maximum}.`;
    case 'too_small':
      return issue.origin === 'string'
        ? `${label(path)} is too short (at least ${issue.minimum} characters).`
        : `${label(path)} must be at least ${issue.minimum}.`;
    case 'invalid_value':
      return `${label(path)} must be one of: ${issue.values.map(String).join(', ')}.`;
    default:
      return undefined;
  }
};

/** Fastify validator compiler: zod schemas from @vigil/contracts, with the parsed (trimmed, lower-cased…) value. */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data, { error: friendlyError });
    return result.success
      ? { value: result.data }
      : { error: new RequestValidationError(result.error.issues) };
  };

/**
 * A union (email + password, or code + state) fails as one issue holding each branch's issues: show the
 * branch the client evidently meant, the one with the fewest problems; on a tie keep the union's own message.
 */
function flatten(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
    const branches = issue.errors.map((branch) => flatten(branch));
    const sizes = branches.map((branch) => branch.length);
    const fewest = Math.min(...sizes);
    const best = branches.filter((branch) => branch.length === fewest);
    if (best.length === 1) return best[0]!;
    const rootTypeError = best[0]!.find((inner) => inner.path.length === 0 && inner.code === 'invalid_type');
    return [rootTypeError ?? issue];
  });
}

export function describeIssues(issues: readonly z.core.$ZodIssue[]): {
  message: string;
  details: ErrorDetail[];
} {
  const flat = flatten(issues);
  const details = flat.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
  return { message: details[0]?.message ?? 'The request is not valid.', details };
}

/**
 * Control characters (Unicode Cc: C0, DEL and C1) but tab, line feed and carriage return. PostgreSQL refuses
 * NUL in text (a 500 deep in a query), and the others have no place in names, addresses or keywords;
 * refusing them where input arrives spares every field its own rule.
 */
const CONTROL_CHARACTER = /[^\P{Cc}\t\n\r]/u;
/** Half a UTF-16 pair (`\ud800` alone): JSON carries it, but no database stores it as text or jsonb. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const isBadText = (text: string) => CONTROL_CHARACTER.test(text) || LONE_SURROGATE.test(text);

/** Objects parsed from JSON or a query string (whose prototype is not always Object's); never a raw body. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !ArrayBuffer.isView(value);
}

/**
 * Every string (value or field name) of a parsed JSON value, query or path that holds a control character or
 * a lone surrogate.
 */
export function controlCharacterDetails(value: unknown, whole = 'The request body'): ErrorDetail[] {
  const name = (path: string[]) => (path.length ? path.join('.') : whole);
  const details: ErrorDetail[] = [];
  // Breadth first over a flat list, each entry pointing at its parent: a deeply nested body can neither
  // exhaust the stack nor cost a copied path per level.
  const nodes: { value: unknown; key: string; parent: number }[] = [{ value, key: '', parent: -1 }];
  const pathOf = (index: number): string[] => {
    const path: string[] = [];
    for (let at = index; at > 0; at = nodes[at]!.parent) path.push(nodes[at]!.key);
    return path.reverse();
  };
  // Ten named fields are plenty to act on, and the cap bounds the work a hostile body can cause.
  for (let index = 0; index < nodes.length && details.length < 10; index += 1) {
    const current = nodes[index]!.value;
    if (typeof current === 'string') {
      if (!isBadText(current)) continue;
      const path = pathOf(index);
      details.push({
        path: path.join('.'),
        message: CONTROL_CHARACTER.test(current)
          ? `${name(path)} must not contain control characters.`
          : `${name(path)} holds a broken character (half of a UTF-16 pair); type or paste it again.`,
      });
    } else if (Array.isArray(current)) {
      current.forEach((item, key) => nodes.push({ value: item, key: String(key), parent: index }));
    } else if (isRecord(current)) {
      for (const [key, item] of Object.entries(current)) {
        if (!isBadText(key)) {
          nodes.push({ value: item, key, parent: index });
          continue;
        }
        const path = pathOf(index);
        details.push({
          path: path.join('.'),
          message: CONTROL_CHARACTER.test(key)
            ? `${name(path)} has a field name with control characters.`
            : `${name(path)} has a field name with a broken character (half of a UTF-16 pair).`,
        });
      }
    }
  }
  return details;
}

/** Throws 400 INVALID naming each offending field, when `value` holds a control character anywhere. */
export function refuseControlCharacters(value: unknown, whole?: string): void {
  const details = controlCharacterDetails(value, whole);
  if (details.length > 0) throw new AppError('INVALID', details[0]!.message, { details });
}

/** preValidation hook: the query string and path parameters of every route (JSON bodies are checked as parsed). */
export async function refuseControlCharactersInUrl(request: FastifyRequest): Promise<void> {
  refuseControlCharacters(request.query, 'The query string');
  refuseControlCharacters(request.params, 'The address');
}

import type { FastifySchemaCompiler } from 'fastify';
import type { ErrorDetail } from '@vigil/contracts';
import type { z } from 'zod';

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

import { loginBody } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssues, type RequestValidationError, validatorCompiler } from './validation.ts';

function validate(
  schema: z.ZodType,
  data: unknown,
): { value?: unknown; message?: string; details?: unknown } {
  const result = validatorCompiler({ schema, method: 'POST', url: '/', httpPart: 'body' })(data) as {
    value?: unknown;
    error?: RequestValidationError;
  };
  return result.error ? describeIssues(result.error.issues) : { value: result.value };
}

describe('request validation', () => {
  it('answers the parsed value, trimmed and lower-cased by the contract', () => {
    expect(validate(loginBody, { email: ' Me@Shop.Example ', password: 'x' })).toEqual({
      value: { email: 'me@shop.example', password: 'x' },
    });
  });

  it('explains a union failure with the branch the client meant', () => {
    expect(validate(loginBody, { email: 'bad', password: 'x' }).message).toBe(
      'Enter a valid email address, like name@shop.com.',
    );
    expect(validate(loginBody, { state: 'abc' })).toEqual({
      message: 'code is required.',
      details: [{ path: 'code', message: 'code is required.' }],
    });
    expect(validate(loginBody, {}).message).toBe(
      'Sign in with your email and password, or through your Google account.',
    );
    expect(validate(loginBody, null).message).toBe('Send the request body as a JSON object.');
  });

  it('puts zod’s built-in messages in words, naming the field', () => {
    const schema = z
      .object({ name: z.string().max(3), count: z.number(), kind: z.enum(['a', 'b']) })
      .strict();
    expect(validate(schema, { name: 'long', count: 'x', kind: 'c', extra: 1 }).details).toEqual([
      { path: 'name', message: 'name is too long (at most 3 characters).' },
      { path: 'count', message: 'count must be a number.' },
      { path: 'kind', message: 'kind must be one of: a, b.' },
      { path: '', message: 'Unknown field: extra.' },
    ]);
  });
});

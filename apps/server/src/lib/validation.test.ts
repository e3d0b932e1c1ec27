import { loginBody } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  controlCharacterDetails,
  describeIssues,
  type RequestValidationError,
  validatorCompiler,
} from './validation.ts';

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

describe('control characters', () => {
  it('names every string and field name holding one, anywhere in the value', () => {
    expect(
      controlCharacterDetails({
        name: 'a\u0000b',
        tags: ['ok', 'bell\u0007', { deep: 'del\u007f' }],
        ['key\u0001']: 'x',
        nested: { c1: '\u0085' },
      }),
    ).toEqual([
      { path: '', message: 'The request body has a field name with control characters.' },
      { path: 'name', message: 'name must not contain control characters.' },
      { path: 'tags.1', message: 'tags.1 must not contain control characters.' },
      { path: 'nested.c1', message: 'nested.c1 must not contain control characters.' },
      { path: 'tags.2.deep', message: 'tags.2.deep must not contain control characters.' },
    ]);
    expect(controlCharacterDetails('\u0000', 'The query string')).toEqual([
      { path: '', message: 'The query string must not contain control characters.' },
    ]);
  });

  it('allows tab, line feed and carriage return, and any other text', () => {
    expect(
      controlCharacterDetails({
        note: 'one\ttwo\r\nthree',
        name: 'Café ✓ 店',
        count: 3,
        on: true,
        none: null,
      }),
    ).toEqual([]);
  });

  it('reads query objects whatever their prototype, and never a raw body', () => {
    const query = Object.create(Object.create(null) as object) as Record<string, string>;
    query.search = 'a\u0000';
    expect(controlCharacterDetails(query, 'The query string')).toEqual([
      { path: 'search', message: 'search must not contain control characters.' },
    ]);
    expect(controlCharacterDetails(Buffer.from('\u0000'))).toEqual([]);
  });

  it('walks a deeply nested body without exhausting the stack', () => {
    const depth = 30_000;
    const deep = JSON.parse(`${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`) as unknown;
    const [detail] = controlCharacterDetails(deep);
    expect(detail!.path.split('.')).toHaveLength(depth);
  });
});

import { describe, expect, it } from 'vitest';
import { tokenFromHeader } from './session.service.ts';

describe('tokenFromHeader()', () => {
  const token = 'k3Jd8s_-Qm2nP0aZ9xYv1WcR4tU7eB6oL5iH3gF2dSa';

  it('reads the raw cookie value and the Bearer form', () => {
    expect(tokenFromHeader(token)).toBe(token);
    expect(tokenFromHeader(`Bearer ${token}`)).toBe(token);
    expect(tokenFromHeader(`bearer   ${token} `)).toBe(token);
  });

  it('ignores what cannot be a token', () => {
    for (const header of [
      undefined,
      '',
      '   ',
      'Bearer',
      'Bearer short',
      'Basic dXNlcjpwYXNz',
      `${token}!`,
      'x'.repeat(300),
    ]) {
      expect(tokenFromHeader(header)).toBeUndefined();
    }
  });
});

import { expect } from 'vitest';

/** What a page must never show a paying customer in place of a feature. */
export function expectNoPlaceholderWords(text: string | null): void {
  expect(text ?? '').not.toMatch(/coming soon|todo|not implemented/i);
}

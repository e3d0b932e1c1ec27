import { describe, expect, it } from 'vitest';
import { toLanguageOptions } from './language-options.ts';

describe('toLanguageOptions', () => {
  it('turns items into value/label pairs', () => {
    expect(toLanguageOptions([{ languageCode: 'en-US', language: 'English' }])).toEqual([
      { value: 'en-US', label: 'English' },
    ]);
  });

  it('de-duplicates by language, keeping the first item and the order', () => {
    expect(
      toLanguageOptions([
        { languageCode: 'en-US', language: 'English' },
        { languageCode: 'fr-FR', language: 'French' },
        { languageCode: 'en-GB', language: 'English' },
        { languageCode: 'de-DE', language: 'German' },
        { languageCode: 'fr-CA', language: 'French' },
      ]),
    ).toEqual([
      { value: 'en-US', label: 'English' },
      { value: 'fr-FR', label: 'French' },
      { value: 'de-DE', label: 'German' },
    ]);
  });

  it('keeps different languages that share a code', () => {
    expect(
      toLanguageOptions([
        { languageCode: 'es', language: 'Spanish' },
        { languageCode: 'es', language: 'Español' },
      ]),
    ).toHaveLength(2);
  });

  it('returns an empty list for no items', () => {
    expect(toLanguageOptions([])).toEqual([]);
  });
});

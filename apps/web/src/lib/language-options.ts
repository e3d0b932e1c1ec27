export interface LanguageItem {
  languageCode: string;
  language: string;
}

export interface SelectOption {
  value: string;
  label: string;
}

/** Turns language items into Select options, one per language name (the first item of a name wins). */
export function toLanguageOptions(items: readonly LanguageItem[]): SelectOption[] {
  const seen = new Set<string>();
  const options: SelectOption[] = [];
  for (const { languageCode, language } of items) {
    if (seen.has(language)) continue;
    seen.add(language);
    options.push({ value: languageCode, label: language });
  }
  return options;
}

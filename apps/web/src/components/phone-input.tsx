import type { ReactNode } from 'react';
import { Group, Select, TextInput } from '@mantine/core';
import { PHONE_COUNTRIES, PHONE_PLANS, parseE164, toE164, type PhoneCountry } from '@vigil/contracts';

/** The country a new phone entry starts with (the spec leaves it open; most merchants we serve are in the US). */
export const DEFAULT_PHONE_COUNTRY: PhoneCountry = 'us';

export interface PhoneValue {
  country: PhoneCountry;
  national: string;
}

const COUNTRY_OPTIONS = PHONE_COUNTRIES.map((country) => ({
  value: country,
  label: `${PHONE_PLANS[country].name} (+${PHONE_PLANS[country].dialCode})`,
}));

export function phoneValueFromE164(value: string | null | undefined): PhoneValue {
  const parsed = value ? parseE164(value) : null;
  return parsed ?? { country: DEFAULT_PHONE_COUNTRY, national: '' };
}

/** The stored E.164 number, null when nothing was typed, or 'invalid' when what was typed is not a number. */
export function phoneValueToE164(value: PhoneValue): string | null | 'invalid' {
  if (!value.national.trim()) return null;
  return toE164(value.country, value.national) ?? 'invalid';
}

export function phoneErrorMessage(country: PhoneCountry): string {
  const plan = PHONE_PLANS[country];
  return `Enter a ${plan.name} number, like ${plan.example}.`;
}

interface PhoneInputProps {
  label: string;
  description?: string;
  value: PhoneValue;
  onChange: (value: PhoneValue) => void;
  error?: ReactNode;
  required?: boolean;
  disabled?: boolean;
}

/** A country (one of the nine the spec allows) and a national number, stored together as E.164. */
export function PhoneInput({
  label,
  description,
  value,
  onChange,
  error,
  required,
  disabled,
}: PhoneInputProps) {
  const plan = PHONE_PLANS[value.country];
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Select
        label="Country"
        data={COUNTRY_OPTIONS}
        value={value.country}
        onChange={(country) => country && onChange({ ...value, country: country as PhoneCountry })}
        allowDeselect={false}
        searchable
        w={{ base: 150, xs: 210 }}
        disabled={disabled}
        required={required}
        withAsterisk={false}
      />
      <TextInput
        label={label}
        description={description}
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        placeholder={plan.example}
        leftSection={<span aria-hidden="true">+{plan.dialCode}</span>}
        leftSectionWidth={48}
        value={value.national}
        onChange={(event) => onChange({ ...value, national: event.currentTarget.value })}
        style={{ flex: 1 }}
        disabled={disabled}
        required={required}
        error={error}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
      />
    </Group>
  );
}

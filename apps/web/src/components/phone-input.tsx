import type { ReactNode } from 'react';
import { Flex, Select, TextInput } from '@mantine/core';
import { PHONE_COUNTRIES, PHONE_PLANS, parseE164, toE164, type PhoneCountry } from '@vigil/contracts';

/** The country the contact phone of onboarding and settings starts with (most merchants we serve are in the US). */
export const DEFAULT_PHONE_COUNTRY: PhoneCountry = 'us';

export interface PhoneValue {
  /** null until the person picks one (or types the number with + and its country code). */
  country: PhoneCountry | null;
  national: string;
}

const COUNTRY_OPTIONS = PHONE_COUNTRIES.map((country) => ({
  value: country,
  label: `${PHONE_PLANS[country].name} (+${PHONE_PLANS[country].dialCode})`,
}));

export function phoneValueFromE164(value: string | null | undefined): PhoneValue {
  const parsed = value ? parseE164(value) : null;
  return parsed ?? { country: null, national: '' };
}

/**
 * The stored E.164 number, null when nothing was typed, or 'invalid' when what was typed is not a number of
 * the chosen country. Without a country, a number typed with + and its country code is taken as it is, when
 * it belongs to one of the nine countries.
 */
export function phoneValueToE164(value: PhoneValue): string | null | 'invalid' {
  const typed = value.national.trim();
  if (!typed) return null;
  if (value.country) return toE164(value.country, typed) ?? 'invalid';
  const international = typed.replace(/[\s().-]/g, '');
  return international.startsWith('+') && parseE164(international) ? international : 'invalid';
}

export function phoneErrorMessage(country: PhoneCountry): string {
  const plan = PHONE_PLANS[country];
  return `Enter a ${plan.name} number, like ${plan.example}.`;
}

interface PhoneInputProps {
  label: string;
  description?: ReactNode;
  value: PhoneValue;
  onChange: (value: PhoneValue) => void;
  error?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  /** Shown inside the number field, at its end (a "Verified" badge). */
  rightSection?: ReactNode;
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
  rightSection,
}: PhoneInputProps) {
  const plan = value.country ? PHONE_PLANS[value.country] : null;
  return (
    // Side by side from xs; on a phone the country sits above the number, each the full width.
    <Flex gap="xs" direction={{ base: 'column', xs: 'row' }} align={{ base: 'stretch', xs: 'flex-start' }}>
      <Select
        label="Country"
        placeholder="Choose"
        data={COUNTRY_OPTIONS}
        value={value.country}
        onChange={(country) => country && onChange({ ...value, country: country as PhoneCountry })}
        allowDeselect={false}
        searchable
        w={{ base: '100%', xs: 210 }}
        disabled={disabled}
        required={required}
        withAsterisk={false}
      />
      <TextInput
        label={label}
        description={description}
        type="tel"
        inputMode="tel"
        autoComplete={plan ? 'tel-national' : 'tel'}
        placeholder={plan ? plan.example : '+44 7400 123456'}
        leftSection={plan ? <span aria-hidden="true">+{plan.dialCode}</span> : undefined}
        leftSectionWidth={plan ? 48 : undefined}
        rightSection={rightSection}
        rightSectionWidth={rightSection ? 90 : undefined}
        value={value.national}
        onChange={(event) => onChange({ ...value, national: event.currentTarget.value })}
        style={{ flex: 1 }}
        disabled={disabled}
        required={required}
        error={error}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
      />
    </Flex>
  );
}

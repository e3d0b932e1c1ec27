import { Select, Stack, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { INDUSTRIES, type PhoneCountry } from '@vigil/contracts';
import { PhoneInput } from '../../../components/phone-input.tsx';
import type { ContactValues } from '../contact-details.ts';

/** Industry, contact phone and contact email: shared by onboarding and settings. */
export function ContactFields({
  form,
  disabled,
}: {
  form: UseFormReturnType<ContactValues>;
  disabled?: boolean;
}) {
  const values = form.getValues();
  return (
    <Stack gap="md">
      <Select
        label="Industry"
        placeholder="Choose your industry"
        data={[...INDUSTRIES]}
        searchable
        required
        allowDeselect={false}
        disabled={disabled}
        {...form.getInputProps('industry')}
      />
      <PhoneInput
        label="Contact phone"
        description="For SMS and call alerts. Optional if you give a contact email."
        value={{ country: values.phoneCountry, national: values.phoneNational }}
        onChange={(phone) => {
          form.setFieldValue('phoneCountry', phone.country as PhoneCountry);
          form.setFieldValue('phoneNational', phone.national);
          form.clearFieldError('contactEmail');
        }}
        error={form.errors.phoneNational}
        disabled={disabled}
      />
      <TextInput
        label="Contact email"
        description="Where alert emails go. Optional if you give a contact phone."
        type="email"
        autoComplete="email"
        disabled={disabled}
        {...form.getInputProps('contactEmail')}
      />
    </Stack>
  );
}

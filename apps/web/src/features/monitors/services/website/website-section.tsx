import { TextInput } from '@mantine/core';
import type { ServiceSectionProps } from '../types.ts';

/** A website monitor watches one page, by its full address. */
export function WebsiteSection({ form, definition }: ServiceSectionProps) {
  return (
    <TextInput
      label={definition.targetLabel}
      placeholder="https://shop.example.com"
      description="The full address, starting with https:// or http://"
      type="url"
      required
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      {...form.getInputProps('target.url')}
    />
  );
}

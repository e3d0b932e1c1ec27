import type { ReactNode } from 'react';
import { Checkbox, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { PhoneInput } from '../../../components/phone-input.tsx';
import type { MonitorFormValues } from '../monitor-form.ts';

const CHANNELS = {
  sms: {
    title: 'SMS',
    description: 'A text message when an incident opens and when it recovers.',
    consent:
      'I agree to receive automated alert text messages from Vigil at this number. Message and data rates may apply. Reply STOP to opt out, HELP for help.',
  },
  call: {
    title: 'Phone call',
    description: 'A call that reads the alert aloud, until you press a key to acknowledge.',
    consent:
      'I agree to receive automated alert calls from Vigil at this number, including outside business hours. I can turn them off at any time.',
  },
} as const;

/**
 * The SMS or call channel with all its fields (number in one of the nine countries, contact name, consent
 * beside its disclosure), held disabled until the phone integration ships; `note` says so.
 */
export function PhoneChannelFields({
  channel,
  form,
  icon,
  note,
}: {
  channel: 'sms' | 'call';
  form: UseFormReturnType<MonitorFormValues>;
  icon: ReactNode;
  note: string;
}) {
  const values = form.getValues()[channel];
  const copy = CHANNELS[channel];
  const noteId = `${channel}-availability`;
  // Every field waits for the phone integration; a channel already on (saved through the API) can still be
  // switched off, so such a monitor stays editable.
  const disabled = true;
  return (
    <Paper withBorder radius="md" p="md" component="fieldset" style={{ margin: 0 }} aria-describedby={noteId}>
      <Stack gap="sm">
        <Checkbox
          label={
            <Group gap={6} component="span">
              {icon}
              <Text span fw={600} size="sm">
                {copy.title}
              </Text>
            </Group>
          }
          description={copy.description}
          disabled={!values.checked}
          {...form.getInputProps(`${channel}.checked`, { type: 'checkbox' })}
        />
        <Text id={noteId} size="sm" c="dimmed">
          {note}
        </Text>
        <PhoneInput
          label="Phone number"
          value={{ country: values.country, national: values.national }}
          onChange={(phone) => {
            form.setFieldValue(`${channel}.country`, phone.country);
            form.setFieldValue(`${channel}.national`, phone.national);
          }}
          error={form.errors[`${channel}.national`]}
          disabled={disabled}
        />
        <TextInput label="Contact name" disabled={disabled} {...form.getInputProps(`${channel}.name`)} />
        <Checkbox
          label={copy.consent}
          disabled={disabled}
          {...form.getInputProps(`${channel}.isAgree`, { type: 'checkbox' })}
        />
      </Stack>
    </Paper>
  );
}

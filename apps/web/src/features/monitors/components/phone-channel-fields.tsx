import type { ReactNode } from 'react';
import { Anchor, Checkbox, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { Link } from 'react-router';
import { PHONE_CONSENT_TEXT, type Plan } from '@vigil/contracts';
import { PhoneInput, phoneValueToE164 } from '../../../components/phone-input.tsx';
import { sendCode } from '../api/send-code.ts';
import { verifyCode } from '../api/verify-code.ts';
import type { ChannelOffer, MonitorFormValues, PhoneChannel } from '../monitor-form.ts';
import { CodeVerification, VerifiedBadge } from './code-verification.tsx';
import { formatCount } from '../../../lib/format-time.ts';

const CHANNELS = {
  sms: {
    title: 'SMS',
    plansLink: 'See plans with SMS',
    description: 'A text message when an incident opens, repeats until acknowledged, and when it recovers.',
    quota: (plan: Plan) => `Your ${plan.name} plan includes ${formatCount(plan.smsPerMonth)} SMS a month.`,
  },
  call: {
    title: 'Phone call',
    plansLink: 'See plans with calls',
    description:
      'A call that reads the alert aloud; press a key to acknowledge it. An unanswered call is followed by a text or an email.',
    quota: (plan: Plan) =>
      `Your ${plan.name} plan includes ${formatCount(plan.callsPerMonth)} calls a month.`,
  },
} as const;

/** One code, by SMS or by call, proves the number for both channels. */
function codeSenders(phone: string, languageCode: string) {
  const language = languageCode ? { languageCode } : {};
  return [
    {
      key: 'sms',
      label: 'Send code by SMS',
      send: () => sendCode({ channel: 'sms', phone, ...language }),
    },
    {
      key: 'call',
      label: 'Call me with a code',
      send: () => sendCode({ channel: 'call', phone, ...language }),
    },
  ];
}

interface PhoneChannelFieldsProps {
  channel: PhoneChannel;
  form: UseFormReturnType<MonitorFormValues>;
  icon: ReactNode;
  /** Whether the user's plan includes this channel; when not, the block is held with the reason. */
  offer: ChannelOffer;
  plan: Plan | null;
  /** The plans page (keeping the create page's `redirect`). */
  pricingPath: string;
  isVerified: (phone: string) => boolean;
  onVerified: (phone: string) => void;
}

/**
 * The SMS or call channel: tick, contact name, a number from the nine countries, consent beside its disclosure,
 * and proving the number with a code sent by SMS or call. A channel the plan lacks stays visible but disabled;
 * one already ticked can still be unticked, so such a monitor stays editable.
 */
export function PhoneChannelFields({
  channel,
  form,
  icon,
  offer,
  plan,
  pricingPath,
  isVerified,
  onVerified,
}: PhoneChannelFieldsProps) {
  const values = form.getValues()[channel];
  const { languageCode } = form.getValues();
  const copy = CHANNELS[channel];
  const titleId = `${channel}-channel-title`;
  const reasonId = `${channel}-channel-plan`;
  const disabled = !offer.included || !values.checked;
  const phone = phoneValueToE164({ country: values.country, national: values.national });
  const number = phone === null || phone === 'invalid' ? null : phone;
  const verified = number !== null && isVerified(number);

  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      component="fieldset"
      style={{ margin: 0 }}
      aria-labelledby={titleId}
      aria-describedby={offer.included ? undefined : reasonId}
    >
      <Stack gap="sm">
        <Checkbox
          label={
            <Group gap={6} component="span">
              {icon}
              <Text span fw={600} size="sm" id={titleId}>
                {copy.title}
              </Text>
            </Group>
          }
          description={offer.included && plan ? `${copy.description} ${copy.quota(plan)}` : copy.description}
          disabled={!offer.included && !values.checked}
          {...form.getInputProps(`${channel}.checked`, { type: 'checkbox' })}
        />
        {offer.included ? null : (
          <Text id={reasonId} size="sm">
            {offer.reason}{' '}
            <Anchor component={Link} to={pricingPath} size="sm">
              {copy.plansLink}
            </Anchor>
          </Text>
        )}
        <TextInput
          label="Contact name"
          placeholder="Who this is for"
          maxLength={100}
          disabled={disabled}
          {...form.getInputProps(`${channel}.name`)}
        />
        <PhoneInput
          label="Phone number"
          value={{ country: values.country, national: values.national }}
          onChange={(next) => {
            form.setFieldValue(`${channel}.country`, next.country);
            form.setFieldValue(`${channel}.national`, next.national);
            form.clearFieldError(`${channel}.national`);
          }}
          error={form.errors[`${channel}.national`]}
          disabled={disabled}
          rightSection={verified && values.checked ? <VerifiedBadge /> : null}
        />
        <Checkbox
          label={PHONE_CONSENT_TEXT}
          disabled={disabled}
          {...form.getInputProps(`${channel}.isAgree`, { type: 'checkbox' })}
        />
        {values.checked && offer.included && number !== null && !verified ? (
          <CodeVerification
            key={number}
            intro="Vigil alerts only verified numbers. Get a code by SMS or by call and enter it here before saving. One code verifies the number for both SMS and calls."
            senders={codeSenders(number, languageCode)}
            verify={(code, via) =>
              verifyCode({ channel: via === 'call' ? 'call' : 'sms', phone: number, code })
            }
            onVerified={() => {
              onVerified(number);
              form.clearFieldError(`${channel}.national`);
            }}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}

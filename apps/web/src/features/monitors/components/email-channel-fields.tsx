import { Checkbox, Group, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { isEmailShape } from '@vigil/contracts';
import { IconMail } from '../../../components/icons.tsx';
import { useWiderThan } from '../../../lib/use-wider-than.ts';
import { sendCode } from '../api/send-code.ts';
import { verifyCode } from '../api/verify-code.ts';
import { normaliseEmail, type MonitorFormValues } from '../monitor-form.ts';
import { CodeVerification, VerifiedBadge } from './code-verification.tsx';

/**
 * The email channel: tick, contact name and address, and proving the address with a code. Vigil alerts only
 * verified addresses, so an unverified one is saved but flagged.
 */
export function EmailChannelFields({
  form,
  isVerified,
  onVerified,
}: {
  form: UseFormReturnType<MonitorFormValues>;
  isVerified: (address: string) => boolean;
  onVerified: (address: string) => void;
}) {
  const { email } = form.getValues();
  const typed = email.email.trim();
  const address = normaliseEmail(email.email);
  const verified = isVerified(address);
  const badge = verified && email.checked;
  const roomy = useWiderThan('md');

  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      component="fieldset"
      style={{ margin: 0 }}
      aria-labelledby="email-channel-title"
    >
      <Stack gap="sm">
        <Checkbox
          label={
            <Group gap={6} component="span">
              <IconMail size={16} />
              <Text span fw={600} size="sm" id="email-channel-title">
                Email
              </Text>
            </Group>
          }
          description="An email when an incident opens, repeats until acknowledged, and a notice when it recovers."
          {...form.getInputProps('email.checked', { type: 'checkbox' })}
        />
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
          <TextInput
            label="Contact name"
            placeholder="Who this is for"
            maxLength={100}
            disabled={!email.checked}
            {...form.getInputProps('email.name')}
          />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="name@shop.com"
            maxLength={254}
            disabled={!email.checked}
            rightSectionWidth={badge && roomy ? 90 : undefined}
            rightSection={badge && roomy ? <VerifiedBadge /> : null}
            // Narrower, the badge inside the field would cover the address: it goes under it.
            description={badge && !roomy ? <VerifiedBadge /> : undefined}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            {...form.getInputProps('email.email')}
          />
        </SimpleGrid>
        {email.checked && isEmailShape(typed) && !verified ? (
          <CodeVerification
            key={address}
            intro="Vigil alerts only verified addresses. Send a code to this address and enter it here before saving."
            senders={[
              {
                key: 'email',
                label: 'Send code',
                againLabel: 'Send a new code',
                send: () => sendCode({ channel: 'email', email: typed }),
              },
            ]}
            verify={(code) => verifyCode({ channel: 'email', email: typed, code })}
            onVerified={() => {
              onVerified(address);
              form.clearFieldError('email.email');
            }}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}

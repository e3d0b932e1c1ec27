import { useState } from 'react';
import { Alert, Badge, Button, Checkbox, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { isEmailShape } from '@vigil/contracts';
import { IconCircleCheck, IconMail } from '../../../components/icons.tsx';
import { sendCode } from '../api/send-code.ts';
import { verifyCode } from '../api/verify-code.ts';
import { normaliseEmail, type MonitorFormValues } from '../monitor-form.ts';

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
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'send' | 'verify' | null>(null);

  const address = normaliseEmail(email.email);
  const verified = isVerified(address);
  const shaped = isEmailShape(email.email.trim());
  const awaitingCode = codeSentTo !== null && codeSentTo === address && !verified;

  async function send() {
    setBusy('send');
    const result = await sendCode(email.email.trim());
    setBusy(null);
    if (!result.ok) return;
    setCodeSentTo(address);
    setSentMessage(result.data.message);
    setCode('');
    setCodeError(null);
  }

  async function verify() {
    if (!/^\d{6}$/.test(code.trim())) {
      setCodeError('The code has 6 digits.');
      return;
    }
    setBusy('verify');
    const result = await verifyCode(email.email.trim(), code.trim());
    setBusy(null);
    if (!result.ok) return;
    if (result.data.verified) {
      onVerified(address);
      setCodeSentTo(null);
      form.clearFieldError('email.email');
    } else {
      setCodeError(result.data.message);
    }
  }

  return (
    <Paper withBorder radius="md" p="md" component="fieldset" style={{ margin: 0 }}>
      <Stack gap="sm">
        <Checkbox
          label={
            <Group gap={6} component="span">
              <IconMail size={16} />
              <Text span fw={600} size="sm">
                Email
              </Text>
            </Group>
          }
          description="An email when an incident opens, repeats until acknowledged, and a notice when it recovers."
          {...form.getInputProps('email.checked', { type: 'checkbox' })}
        />
        <Group grow align="flex-start" gap="sm">
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
            rightSectionWidth={verified ? 90 : undefined}
            rightSection={
              verified && email.checked ? (
                <Badge color="green" variant="light" size="sm" leftSection={<IconCircleCheck size={12} />}>
                  Verified
                </Badge>
              ) : null
            }
            {...form.getInputProps('email.email')}
          />
        </Group>
        {email.checked && shaped && !verified ? (
          <Alert color="yellow" variant="light" p="sm">
            <Stack gap="xs">
              <Text size="sm">
                {awaitingCode
                  ? (sentMessage ?? `We sent a 6-digit code to ${email.email.trim()}.`)
                  : 'Vigil alerts only verified addresses. Send a code to this address and enter it here before saving.'}
              </Text>
              {awaitingCode ? (
                <Group gap="xs" align="flex-end">
                  <TextInput
                    label="6-digit code"
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={6}
                    value={code}
                    onChange={(event) => {
                      setCode(event.currentTarget.value);
                      setCodeError(null);
                    }}
                    error={codeError}
                    w={140}
                  />
                  <Button
                    onClick={() => void verify()}
                    loading={busy === 'verify'}
                    disabled={busy === 'send'}
                  >
                    Verify
                  </Button>
                  <Button
                    variant="subtle"
                    onClick={() => void send()}
                    loading={busy === 'send'}
                    disabled={busy === 'verify'}
                  >
                    Send a new code
                  </Button>
                </Group>
              ) : (
                <Group>
                  <Button size="xs" variant="white" onClick={() => void send()} loading={busy === 'send'}>
                    Send code
                  </Button>
                </Group>
              )}
            </Stack>
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}

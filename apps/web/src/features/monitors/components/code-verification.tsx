import { useState } from 'react';
import { Alert, Badge, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import type { ContactVerification } from '@vigil/contracts';
import { IconCircleCheck } from '../../../components/icons.tsx';
import type { ApiResult } from '../../../lib/api-client.ts';

/** Shown in a contact's field once it is verified. */
export function VerifiedBadge() {
  return (
    <Badge color="green" variant="light" size="sm" leftSection={<IconCircleCheck size={12} />}>
      Verified
    </Badge>
  );
}

/** One way to get a code: the email, a text message or a call. */
export interface CodeSender {
  key: string;
  label: string;
  /** The button's label once a code went out this way, when it should say so ("Send a new code"). */
  againLabel?: string;
  send: () => Promise<ApiResult<ContactVerification>>;
}

interface CodeVerificationProps {
  /** What to do, before a code is sent. */
  intro: string;
  senders: CodeSender[];
  /** Checks the code; `sentWith` is the key of the sender that sent it. */
  verify: (code: string, sentWith: string) => Promise<ApiResult<ContactVerification>>;
  onVerified: () => void;
}

/**
 * Proving a contact with a code: send it one of the ways offered, enter the 6 digits, Verify. Failures (a wrong
 * code, too many codes sent) stay in the panel beside the buttons, where the person is looking.
 * Give it a `key` of the contact, so a changed address or number starts over.
 */
export function CodeVerification({ intro, senders, verify, onVerified }: CodeVerificationProps) {
  const [sentWith, setSentWith] = useState<string | null>(null);
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const [sendError, setSendError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function send(sender: CodeSender) {
    setBusy(sender.key);
    setSendError(null);
    const result = await sender.send();
    setBusy(null);
    if (!result.ok) {
      setSendError(result.message);
      return;
    }
    if (result.data.verified) {
      onVerified();
      return;
    }
    setSentWith(sender.key);
    setSentMessage(result.data.message);
    setCode('');
    setCodeError(null);
  }

  async function check(via: string) {
    if (!/^\d{6}$/.test(code.trim())) {
      setCodeError('The code has 6 digits.');
      return;
    }
    setBusy('verify');
    const result = await verify(code.trim(), via);
    setBusy(null);
    if (!result.ok) setCodeError(result.message);
    else if (result.data.verified) onVerified();
    else setCodeError(result.data.message);
  }

  const sendButtons = senders.map((sender) => (
    <Button
      key={sender.key}
      size="xs"
      variant={sentWith === null ? 'white' : 'subtle'}
      onClick={() => void send(sender)}
      loading={busy === sender.key}
      disabled={busy !== null && busy !== sender.key}
    >
      {sentWith === sender.key && sender.againLabel ? sender.againLabel : sender.label}
    </Button>
  ));

  return (
    // A group, not Mantine's default alert role: it is guidance, and its failures carry their own alert.
    <Alert color="yellow" variant="light" p="sm" role="group" aria-label="Verify with a code">
      <Stack gap="xs">
        <Text size="sm" role="status">
          {sentWith === null ? intro : (sentMessage ?? 'We sent a 6-digit code.')}
        </Text>
        {sendError ? (
          <Text size="sm" c="red.9" role="alert">
            {sendError}
          </Text>
        ) : null}
        {sentWith === null ? (
          <Group gap="xs">{sendButtons}</Group>
        ) : (
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
              onClick={() => void check(sentWith)}
              loading={busy === 'verify'}
              disabled={busy !== null && busy !== 'verify'}
            >
              Verify
            </Button>
            {sendButtons}
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { RESOLUTION_NOTE_MAX, type Alert } from '@vigil/contracts';
import { resolveAlert } from '../api/resolve-alert.ts';

/**
 * Resolving an alert by hand, with an optional note for whoever reads the history. Says what happens next:
 * no recovery notice, and a new alert if the checks still fail.
 */
export interface ResolveAlertProps {
  alert: Alert | null;
  onClose: () => void;
  onResolved: (alert: Alert) => void;
}

export function ResolveAlertDialog({ alert, onClose, onResolved }: ResolveAlertProps) {
  const [note, setNote] = useState('');
  const [saving, setSaving] = useState(false);

  async function resolve() {
    if (!alert) return;
    setSaving(true);
    const result = await resolveAlert(alert.incidentId, note);
    setSaving(false);
    if (!result.ok) return;
    setNote('');
    onResolved(result.data);
  }

  return (
    <Modal
      opened={alert !== null}
      onClose={() => (saving ? undefined : onClose())}
      title="Resolve this alert"
      centered
    >
      {alert ? (
        <Stack gap="md">
          <Text size="sm">
            “{alert.conditionLabel}” on {alert.monitorName} ends now: no more reminders and no recovery
            notice. If the checks still fail, a new alert opens.
          </Text>
          <Textarea
            label="Note (optional)"
            description="What happened, for whoever reads the alert later."
            value={note}
            onChange={(event) => setNote(event.currentTarget.value)}
            maxLength={RESOLUTION_NOTE_MAX}
            rows={3}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={saving}>
              Cancel
            </Button>
            <Button onClick={() => void resolve()} loading={saving}>
              Resolve alert
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

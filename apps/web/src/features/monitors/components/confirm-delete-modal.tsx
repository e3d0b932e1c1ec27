import { Button, Group, Modal, Text } from '@mantine/core';

export interface ConfirmDeleteProps {
  names: string[];
  opened: boolean;
  deleting: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/** Asks before monitors are deleted: their history and incidents go with them. */
export function ConfirmDeleteModal({ names, opened, deleting, onCancel, onConfirm }: ConfirmDeleteProps) {
  const one = names.length === 1;
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title={one ? 'Delete this monitor?' : `Delete ${names.length} monitors?`}
      centered
    >
      <Text size="sm">
        {one ? (
          <>
            <Text span fw={600}>
              {names[0]}
            </Text>{' '}
            stops being checked, and its history and incidents are deleted with it.
          </>
        ) : (
          'They stop being checked, and their history and incidents are deleted with them.'
        )}{' '}
        This cannot be undone.
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel} disabled={deleting}>
          Cancel
        </Button>
        <Button color="red" onClick={onConfirm} loading={deleting}>
          {one ? 'Delete monitor' : `Delete ${names.length} monitors`}
        </Button>
      </Group>
    </Modal>
  );
}

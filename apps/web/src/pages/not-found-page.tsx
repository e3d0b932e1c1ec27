import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { HonestEmptyState } from '../components/honest-empty-state.tsx';
import { IconAlertTriangle } from '../components/icons.tsx';

export default function NotFoundPage() {
  return (
    <HonestEmptyState
      icon={<IconAlertTriangle size={28} />}
      title="This page does not exist"
      actions={
        <Button component={Link} to="/monitor">
          Go to your monitors
        </Button>
      }
    >
      The link may be mistyped or out of date.
    </HonestEmptyState>
  );
}

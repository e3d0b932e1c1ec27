import { Alert } from '@mantine/core';
import { useLocation } from 'react-router';
import { IconCircleCheck } from '../components/icons.tsx';
import { decodeRedirect, isPendingBinding } from '../app/startup.ts';
import { parseQuery } from '../lib/query-string.ts';
import { MonitorFormPage } from './monitor-form-page.tsx';

export default function MonitorCreatePage() {
  const { search } = useLocation();
  // `redirect` stays in this page's address (nothing here navigates without it) and goes on to the plans
  // page: it carries a connection started before sign-in.
  const { redirect } = parseQuery(search);
  const pending = redirect ? isPendingBinding(decodeRedirect(redirect)) : false;

  return (
    <MonitorFormPage
      title="New monitor"
      description="Choose what to watch, the checks to run and who to alert."
      redirect={redirect}
      notice={
        pending ? (
          <Alert
            variant="light"
            icon={<IconCircleCheck />}
            title="Your connection is kept"
            mb="lg"
            role="status"
            maw={880}
          >
            You started connecting an account before signing in. Vigil keeps it in this page&apos;s address
            until that service can be monitored; meanwhile you can create website monitors here.
          </Alert>
        ) : null
      }
    />
  );
}

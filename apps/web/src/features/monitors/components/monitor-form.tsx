import { useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { Link } from 'react-router';
import { useForm } from '@mantine/form';
import type { ErrorDetail, Monitor, MonitorInput } from '@vigil/contracts';
import { IconAlertTriangle, IconMessage, IconPhone } from '../../../components/icons.tsx';
import { useRequest } from '../../../lib/use-request.ts';
import { getVerifiedContacts } from '../api/get-verified-contacts.ts';
import { startConnect } from '../connect/start-connect.ts';
import {
  channelOffer,
  checkMonitorForm,
  intervalHint,
  intervalOptions,
  isCreatable,
  languageOptions,
  repeatOptions,
  normaliseEmail,
  serviceOf,
  switchService,
  type MonitorFormLimits,
  type MonitorFormValues,
} from '../monitor-form.ts';
import { serviceModule } from '../services/index.ts';
import type { ConnectAccount } from '../services/types.ts';
import { ConditionFields } from './condition-fields.tsx';
import { EmailChannelFields } from './email-channel-fields.tsx';
import { PhoneChannelFields } from './phone-channel-fields.tsx';
import { ServicePicker } from './service-picker.tsx';
import { SectionCard } from '../../../components/section-card.tsx';

/** The server's field paths (contracts) → the form's; the service's module maps those of its target. */
export function formFieldOf(path: string, service: string): string {
  if (path === 'target' || path.startsWith('target.')) {
    return serviceModule(service)?.formFieldOf?.(path) ?? path;
  }
  if (path === 'emailSettings') return 'alertSettings';
  // The server refuses a whole phone channel (not in the plan) on the group itself.
  const group = /^(sms|call)Settings$/.exec(path);
  if (group) return `${group[1]}.checked`;
  const channel = /^(email|sms|call)Settings\.(.+)$/.exec(path);
  if (channel) {
    const [, name, field] = channel;
    return `${name}.${field === 'phone' ? 'national' : field}`;
  }
  return path;
}

interface MonitorFormProps {
  limits: MonitorFormLimits;
  initialValues: MonitorFormValues;
  /** The monitor being edited; absent while creating one. */
  monitor?: Monitor | undefined;
  /** This page's app path and query: connecting a shop comes back here, with the form as it was. */
  returnTo: string;
  /** Sends the body; resolves with the server's field errors when it refused, nothing when it saved. */
  onSubmit: (body: MonitorInput) => Promise<ErrorDetail[] | undefined>;
  onCancel: () => void;
  /** The plans page, linked beside the interval hint and from channels the plan lacks. */
  pricingPath: string;
}

/** The one form of /monitor_create and /monitor_edit. */
export function MonitorForm({
  limits,
  initialValues,
  monitor,
  returnTo,
  onSubmit,
  onCancel,
  pricingPath,
}: MonitorFormProps) {
  const editing = monitor !== undefined;
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<MonitorFormValues>({ mode: 'controlled', initialValues });
  const values = form.getValues();
  const service = serviceOf(limits.catalogue, values.service);
  const registered = serviceModule(values.service);
  const plan = limits.plan;
  const contacts = useRequest('verified-contacts', getVerifiedContacts);
  const [verifiedNow, setVerifiedNow] = useState<string[]>([]);
  // Unknown until the list arrives; if it cannot be loaded the server still checks on save. Emails compare
  // normalised; numbers are E.164, whichever channel proved them.
  const verifiedContacts = contacts.data
    ? [
        ...verifiedNow,
        ...contacts.data.list.map((contact) =>
          contact.channel === 'email' ? normaliseEmail(contact.address) : contact.address,
        ),
      ]
    : undefined;
  const isVerified = (address: string) => verifiedContacts?.includes(address) ?? false;
  const addVerified = (address: string) => setVerifiedNow((list) => [...list, address]);
  const plansLink = (
    <Anchor component={Link} to={pricingPath} size="xs">
      Compare plans
    </Anchor>
  );

  async function submit() {
    const { errors, body } = checkMonitorForm(form.getValues(), { ...limits, verifiedContacts });
    form.setErrors(errors);
    if (!body) return;
    setSubmitting(true);
    const details = await onSubmit(body);
    setSubmitting(false);
    if (details && details.length > 0) {
      const service = form.getValues().service;
      form.setErrors(
        Object.fromEntries(details.map((detail) => [formFieldOf(detail.path, service), detail.message])),
      );
    }
  }

  const connect: ConnectAccount = (request) =>
    startConnect({ ...request, returnTo, values: form.getValues() });

  const errorCount = Object.keys(form.errors).length;
  const knownFields = new Set([
    'service',
    'name',
    'conditions',
    'intervalSeconds',
    'repeatIntervalMinutes',
    'confirmations',
    'languageCode',
    'alertSettings',
  ]);
  const otherErrors = Object.entries(form.errors).filter(
    ([field]) =>
      !knownFields.has(field) &&
      !registered?.shownErrors.test(field) &&
      !/^(conditions\.[^.]+\.[^.]+|email\.(name|email)|sms\.|call\.)/.test(field),
  );

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      noValidate
      aria-label={editing ? 'Edit monitor' : 'New monitor'}
    >
      <Stack gap="lg" maw={880}>
        <SectionCard id="monitor-what" title="What to watch">
          <ServicePicker
            services={limits.catalogue.list}
            isCreatable={isCreatable}
            value={values.service}
            onChange={(next) => {
              form.setValues(switchService(form.getValues(), limits.catalogue, next));
              form.clearErrors();
            }}
            error={form.errors.service as string | undefined}
            locked={editing}
          />
          <TextInput
            label="Name"
            placeholder="Main storefront"
            required
            maxLength={100}
            w={{ base: '100%', sm: '50%' }}
            {...form.getInputProps('name')}
          />
          {service && registered ? (
            <registered.Section
              key={values.service}
              form={form}
              definition={service}
              monitorId={monitor?.monitorId}
              savedTarget={
                monitor?.service === values.service ? registered.initialTarget(monitor) : undefined
              }
              connect={connect}
            />
          ) : null}
        </SectionCard>

        {service ? (
          <SectionCard
            id="monitor-checks"
            title="Checks"
            description="An incident opens when a check that is on fails."
          >
            <ConditionFields service={service} form={form} optionLabels={registered?.conditionOptionLabels} />
          </SectionCard>
        ) : null}

        <SectionCard id="monitor-schedule" title="Schedule">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            <Select
              label="Check every"
              data={intervalOptions(
                limits,
                initialValues.intervalSeconds ? Number(initialValues.intervalSeconds) : undefined,
              )}
              allowDeselect={false}
              description={
                <>
                  {intervalHint(limits)} {plan ? plansLink : null}
                </>
              }
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              {...form.getInputProps('intervalSeconds')}
            />
            <NumberInput
              label="Failed checks before alerting"
              description="Re-checks first, so one blip does not wake you."
              min={limits.catalogue.confirmations.min}
              max={limits.catalogue.confirmations.max}
              allowDecimal={false}
              allowNegative={false}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              {...form.getInputProps('confirmations')}
            />
            <Select
              label="Repeat the alert"
              description="Until the incident is acknowledged or resolved."
              data={repeatOptions(limits, Number(initialValues.repeatIntervalMinutes))}
              allowDeselect={false}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              {...form.getInputProps('repeatIntervalMinutes')}
            />
          </SimpleGrid>
        </SectionCard>

        <SectionCard
          id="monitor-alerts"
          title="Alerts"
          description="Who to alert, and how. Without a ticked channel, incidents still show on the Alerts page."
        >
          <EmailChannelFields form={form} isVerified={isVerified} onVerified={addVerified} />
          <Select
            label="Language of calls and texts"
            description="Alert calls, text messages and the codes they send use this language."
            data={languageOptions(limits.catalogue)}
            allowDeselect={false}
            searchable
            w={{ base: '100%', xs: 320 }}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            {...form.getInputProps('languageCode')}
          />
          <PhoneChannelFields
            channel="sms"
            form={form}
            icon={<IconMessage size={16} />}
            offer={channelOffer(limits, 'sms')}
            plan={plan}
            pricingPath={pricingPath}
            isVerified={isVerified}
            onVerified={addVerified}
          />
          <PhoneChannelFields
            channel="call"
            form={form}
            icon={<IconPhone size={16} />}
            offer={channelOffer(limits, 'call')}
            plan={plan}
            pricingPath={pricingPath}
            isVerified={isVerified}
            onVerified={addVerified}
          />
          {form.errors.alertSettings ? (
            <Alert color="red" variant="light" icon={<IconAlertTriangle />} role="alert">
              {form.errors.alertSettings}
            </Alert>
          ) : null}
        </SectionCard>

        {errorCount > 0 ? (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle />}
            role="alert"
            title="Some fields need attention"
          >
            {otherErrors.length > 0
              ? otherErrors.map(([field, message]) => (
                  <Text size="sm" key={field}>
                    {String(message)}
                  </Text>
                ))
              : 'Fix the fields marked in red, then save again.'}
          </Alert>
        ) : null}

        <Group>
          <Button type="submit" loading={submitting}>
            {editing ? 'Save changes' : 'Create monitor'}
          </Button>
          <Button variant="default" onClick={onCancel} disabled={submitting}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

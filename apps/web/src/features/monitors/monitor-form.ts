import {
  isAlertSettingsValid,
  isEmailShape,
  PHONE_NUMBER_MESSAGE,
  type Connection,
  type Monitor,
  type MonitorInput,
  type PhoneCountry,
  type Plan,
  type ServiceDefinition,
} from '@vigil/contracts';
import { phoneValueFromE164, phoneValueToE164 } from '../../components/phone-input.tsx';
import { formatInterval } from '../../lib/format-time.ts';
import { toLanguageOptions, type SelectOption } from '../../lib/language-options.ts';
import type { Bounds, MonitorCatalogue } from './api/get-monitor-service.ts';
import { checkBounds, type FormErrors } from './form-numbers.ts';
import { checkConditions, conditionsOf, defaultConditions } from './services/conditions.ts';
import { serviceModule, serviceModuleOfProvider } from './services/index.ts';
import type { ConditionValue, ServicePart, TargetValues } from './services/types.ts';

export type { ConditionValue } from './services/types.ts';

export interface PhoneChannelValues {
  checked: boolean;
  name: string;
  isAgree: boolean;
  /** null until chosen: the form shows no default country. */
  country: PhoneCountry | null;
  national: string;
}

/**
 * The form's values. The shared part (name, schedule, language, alert channels) is typed here; `target` is
 * the service's own part, which its module (services/) types, checks and turns into the body.
 */
export interface MonitorFormValues {
  service: string;
  name: string;
  target: TargetValues;
  conditions: Record<string, ConditionValue>;
  /** Select values are strings; the body carries numbers. */
  intervalSeconds: string;
  repeatIntervalMinutes: string;
  confirmations: number | string;
  languageCode: string;
  email: { checked: boolean; name: string; email: string };
  sms: PhoneChannelValues;
  call: PhoneChannelValues;
}

/**
 * What bounds the form: the catalogue always; the user's plan, the plans on offer and the verified contacts
 * when they are known.
 */
export interface MonitorFormLimits {
  catalogue: MonitorCatalogue;
  plan: Plan | null;
  plans?: readonly Plan[] | undefined;
  /**
   * The contacts the user proved they own: email addresses (normalised) and phone numbers (E.164, one code
   * by SMS or call verifies a number for both). The server alerts only these.
   */
  verifiedContacts?: readonly string[] | undefined;
}

export type PhoneChannel = 'sms' | 'call';

/** Whether the user's plan includes the channel; unknown plans leave it open and the server decides. */
export type ChannelOffer = { included: true } | { included: false; reason: string };

const CHANNEL_NOUNS: Record<PhoneChannel, string> = { sms: 'SMS alerts', call: 'Calls' };

function joinAnd(names: string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** E.g. `{ included: false, reason: 'Calls come with Pro and Business.' }` on the Free plan. */
export function channelOffer({ plan, plans }: MonitorFormLimits, channel: PhoneChannel): ChannelOffer {
  if (!plan || plan.channels.includes(channel)) return { included: true };
  const offering = (plans ?? [])
    .filter((entry) => entry.channels.includes(channel))
    .map((entry) => entry.name);
  return {
    included: false,
    reason:
      offering.length > 0
        ? `${CHANNEL_NOUNS[channel]} come with ${joinAnd(offering)}.`
        : `${CHANNEL_NOUNS[channel]} are not part of your ${plan.name} plan.`,
  };
}

/** Addresses compare trimmed and lower-cased, as the server stores them. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export type MonitorFormErrors = FormErrors;

/** The message the server gives for the spec's alert-settings rule (contracts `monitorInput`). */
export const ALERT_SETTINGS_MESSAGE =
  'Check the alert settings: each ticked channel needs its contact filled in (and consent for calls and SMS), and the email must look like name@shop.com.';

const INTERVAL_LADDER = [30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21_600, 43_200, 86_400];
const REPEAT_LADDER = [0, 5, 10, 15, 30, 60, 120, 240, 480, 720, 1440];

export function serviceOf(catalogue: MonitorCatalogue, service: string): ServiceDefinition | undefined {
  return catalogue.list.find((entry) => entry.service === service);
}

/** The shortest interval the user may pick: the catalogue's floor, raised by the plan's. */
export function shortestInterval({ catalogue, plan }: MonitorFormLimits): number {
  return Math.max(catalogue.intervalSeconds.min, plan?.minIntervalSeconds ?? 0);
}

function withinBounds(values: number[], bounds: Bounds, extra: (number | undefined)[]): number[] {
  const all = new Set(values.filter((value) => value >= bounds.min && value <= bounds.max));
  for (const value of [bounds.default, bounds.min, ...extra]) {
    if (value !== undefined && value >= bounds.min && value <= bounds.max) all.add(value);
  }
  return [...all].sort((a, b) => a - b);
}

export interface IntervalOption extends SelectOption {
  disabled?: boolean;
}

/**
 * Check intervals within the catalogue's bounds; those shorter than the plan allows are listed but disabled,
 * so the user sees what a higher plan offers.
 */
export function intervalOptions(limits: MonitorFormLimits, current?: number): IntervalOption[] {
  const floor = shortestInterval(limits);
  return withinBounds(INTERVAL_LADDER, limits.catalogue.intervalSeconds, [
    limits.plan?.minIntervalSeconds,
    current,
  ]).map((seconds) => ({
    value: String(seconds),
    label:
      seconds < floor
        ? `Every ${formatInterval(seconds)} (higher plans)`
        : `Every ${formatInterval(seconds)}`,
    ...(seconds < floor ? { disabled: true } : {}),
  }));
}

export function repeatOptions(limits: MonitorFormLimits, current?: number): SelectOption[] {
  return withinBounds(REPEAT_LADDER, limits.catalogue.repeatIntervalMinutes, [current]).map((minutes) => ({
    value: String(minutes),
    label: minutes === 0 ? 'Alert once, do not repeat' : `Every ${formatInterval(minutes * 60)}`,
  }));
}

export function languageOptions(catalogue: MonitorCatalogue): SelectOption[] {
  return toLanguageOptions(catalogue.languages);
}

/** A hint naming the plan's limit, e.g. 'Your Free plan checks at most every 5 minutes.' */
export function intervalHint(limits: MonitorFormLimits): string {
  const floor = shortestInterval(limits);
  if (!limits.plan) return `Checks run at most every ${formatInterval(floor)}.`;
  return `Your ${limits.plan.name} plan checks at most every ${formatInterval(floor)}.`;
}

function phoneChannelValues(
  settings: Monitor['smsSettings'] | undefined,
  contactPhone: string | null | undefined,
): PhoneChannelValues {
  const phone = phoneValueFromE164(settings ? settings.phone : contactPhone);
  return {
    checked: settings?.checked ?? false,
    name: settings?.name ?? '',
    isAgree: settings?.isAgree ?? false,
    country: phone.country,
    national: phone.national,
  };
}

/** The user's contact details from onboarding: a new monitor's alert addresses start from them. */
export interface UserContacts {
  contactEmail?: string | null | undefined;
  telPhone?: string | null | undefined;
}

/**
 * A new monitor starts from the catalogue's defaults, its email ticked for the contact email and its phone
 * numbers filled (not ticked) with the contact phone; an existing one from what the server holds.
 */
export function initialFormValues(
  limits: MonitorFormLimits,
  monitor?: Monitor,
  { contactEmail, telPhone }: UserContacts = {},
): MonitorFormValues {
  const { catalogue } = limits;
  const firstCreatable = catalogue.list.find((entry) => isCreatable(entry));
  const service = monitor?.service ?? firstCreatable?.service ?? '';
  const interval =
    monitor?.intervalSeconds ?? Math.max(catalogue.intervalSeconds.default, shortestInterval(limits));
  const languages = languageOptions(catalogue);
  return {
    service,
    name: monitor?.name ?? '',
    target: serviceModule(service)?.initialTarget(monitor) ?? {},
    conditions: conditionsOf(serviceOf(catalogue, service), monitor?.conditions),
    intervalSeconds: String(interval),
    repeatIntervalMinutes: String(monitor?.repeatIntervalMinutes ?? catalogue.repeatIntervalMinutes.default),
    confirmations: monitor?.confirmations ?? catalogue.confirmations.default,
    languageCode: monitor?.languageCode ?? languages[0]?.value ?? '',
    email: monitor
      ? {
          checked: monitor.emailSettings.checked,
          name: monitor.emailSettings.name,
          email: monitor.emailSettings.email,
        }
      : { checked: Boolean(contactEmail), name: '', email: contactEmail ?? '' },
    sms: phoneChannelValues(monitor?.smsSettings, telPhone),
    call: phoneChannelValues(monitor?.callSettings, telPhone),
  };
}

function phoneSettings(
  errors: MonitorFormErrors,
  limits: MonitorFormLimits,
  field: PhoneChannel,
  values: PhoneChannelValues,
) {
  const phone = phoneValueToE164({ country: values.country, national: values.national });
  const offer = channelOffer(limits, field);
  if (values.checked && !offer.included) {
    errors[`${field}.checked`] = `${offer.reason} Untick it to save, or choose a plan that includes it.`;
  } else if (values.checked) {
    if (phone === null) errors[`${field}.national`] = 'Enter the number to alert.';
    else if (phone === 'invalid') errors[`${field}.national`] = PHONE_NUMBER_MESSAGE;
    else if (limits.verifiedContacts && !limits.verifiedContacts.includes(phone)) {
      errors[`${field}.national`] = `Verify ${phone} first: get a code by SMS or by call and enter it.`;
    }
    if (!values.isAgree) errors[`${field}.isAgree`] = 'Tick the consent box to receive these alerts.';
  }
  return {
    checked: values.checked,
    name: values.name.trim(),
    isAgree: values.isAgree,
    phone: phone === null || phone === 'invalid' ? '' : phone,
  };
}

/**
 * Checks the form against the catalogue, the plan and the contracts, and builds the request body.
 * Field errors are keyed by the form's paths; `alertSettings` carries the spec's rule (contracts
 * `isAlertSettingsValid`) when no field error explains it.
 */
export function checkMonitorForm(
  values: MonitorFormValues,
  limits: MonitorFormLimits,
): { errors: MonitorFormErrors; body: MonitorInput | null } {
  const { catalogue, plan } = limits;
  const errors: MonitorFormErrors = {};

  const service = serviceOf(catalogue, values.service);
  const registered = serviceModule(values.service);
  if (!service) errors.service = 'Choose what to watch.';
  else if (!service.available) {
    errors.service = service.unavailableReason ?? `${service.name} monitors cannot be created yet.`;
  } else if (!registered) errors.service = `${service.name} monitors cannot be created from this page yet.`;

  const name = values.name.trim();
  if (!name) errors.name = 'Give the monitor a name.';
  else if (name.length > 100) errors.name = 'A name has at most 100 characters.';

  let part: ServicePart | null = null;
  if (service && registered) {
    const conditions = checkConditions(errors, service, values.conditions);
    const checked = registered.check(values.target, conditions);
    for (const [field, message] of Object.entries(checked.errors)) errors[field] ??= message;
    part = checked.part;
  }

  const floor = shortestInterval(limits);
  const interval = checkBounds(
    errors,
    'intervalSeconds',
    values.intervalSeconds,
    catalogue.intervalSeconds,
    'seconds',
  );
  if (interval !== null && interval < floor) {
    errors.intervalSeconds = plan
      ? `Your ${plan.name} plan checks at most every ${formatInterval(floor)}. Choose a longer interval, or a plan with faster checks.`
      : `Checks run at most every ${formatInterval(floor)}.`;
  }
  const repeat = checkBounds(
    errors,
    'repeatIntervalMinutes',
    values.repeatIntervalMinutes,
    catalogue.repeatIntervalMinutes,
    'minutes',
  );
  const confirmations = checkBounds(errors, 'confirmations', values.confirmations, catalogue.confirmations);

  if (!languageOptions(catalogue).some((option) => option.value === values.languageCode)) {
    errors.languageCode = 'Choose the language of the alerts.';
  }

  const email = values.email.email.trim();
  if (values.email.checked) {
    if (!email) errors['email.email'] = 'Enter the email address to alert.';
    else if (!isEmailShape(email)) errors['email.email'] = 'Enter an email like name@shop.com.';
    else if (limits.verifiedContacts && !limits.verifiedContacts.includes(normaliseEmail(email))) {
      errors['email.email'] = `Verify ${email} first: send a code and enter it.`;
    }
  }
  const settings = {
    callSettings: phoneSettings(errors, limits, 'call', values.call),
    smsSettings: phoneSettings(errors, limits, 'sms', values.sms),
    emailSettings: { checked: values.email.checked, name: values.email.name.trim(), isAgree: false, email },
  };
  if (!isAlertSettingsValid(settings)) {
    const explained = ['email.', 'sms.', 'call.'].some((prefix) =>
      Object.keys(errors).some((key) => key.startsWith(prefix)),
    );
    if (!explained) errors.alertSettings = ALERT_SETTINGS_MESSAGE;
  }

  if (
    Object.keys(errors).length > 0 ||
    part === null ||
    interval === null ||
    repeat === null ||
    confirmations === null
  ) {
    return { errors, body: null };
  }
  return {
    errors,
    body: {
      name,
      ...part,
      intervalSeconds: interval,
      repeatIntervalMinutes: repeat,
      confirmations,
      languageCode: values.languageCode,
      ...settings,
    },
  };
}

/** A service the form can create: the catalogue offers it and this app has its module. */
export function isCreatable(service: ServiceDefinition): boolean {
  return service.available && serviceModule(service.service) !== undefined;
}

/** The values of another service: its empty section and the catalogue's default conditions. */
export function switchService(
  values: MonitorFormValues,
  catalogue: MonitorCatalogue,
  service: string,
): MonitorFormValues {
  return {
    ...values,
    service,
    target: serviceModule(service)?.initialTarget() ?? {},
    conditions: defaultConditions(serviceOf(catalogue, service)),
  };
}

/**
 * The values with a connection just made chosen: on the service that watches through its provider (switching
 * to it, with its defaults, when the form was on another).
 */
export function withConnection(
  values: MonitorFormValues,
  catalogue: MonitorCatalogue,
  connection: Connection,
): MonitorFormValues {
  const registered = serviceModuleOfProvider(connection.provider);
  if (!registered?.withConnection) return values;
  const current =
    values.service === registered.service ? values : switchService(values, catalogue, registered.service);
  return { ...current, target: registered.withConnection(current.target, connection) };
}

/** Whether saved values (from before connecting a shop) have the form's shape, so they can be restored. */
export function isFormValues(value: unknown): value is MonitorFormValues {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  const isObject = (key: string) => typeof record[key] === 'object' && record[key] !== null;
  return (
    typeof record.service === 'string' &&
    typeof record.name === 'string' &&
    ['target', 'conditions', 'email', 'sms', 'call'].every(isObject)
  );
}

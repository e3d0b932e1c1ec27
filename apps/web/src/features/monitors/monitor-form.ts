import {
  isAlertSettingsValid,
  isEmailShape,
  PHONE_NUMBER_MESSAGE,
  websiteConditions,
  websiteTarget,
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

/** One condition as the form holds it: on/off plus its parameters (numbers may be '' while typed). */
export type ConditionValue = { enabled: boolean } & Record<string, string | number | boolean>;

export interface PhoneChannelValues {
  checked: boolean;
  name: string;
  isAgree: boolean;
  /** null until chosen: the form shows no default country. */
  country: PhoneCountry | null;
  national: string;
}

export interface MonitorFormValues {
  service: string;
  name: string;
  url: string;
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

export type MonitorFormErrors = Record<string, string>;

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

export function defaultConditions(service: ServiceDefinition | undefined): Record<string, ConditionValue> {
  const conditions: Record<string, ConditionValue> = {};
  for (const definition of service?.conditions ?? []) {
    const value: ConditionValue = { enabled: definition.enabledByDefault };
    for (const param of definition.params) value[param.key] = param.default;
    conditions[definition.key] = value;
  }
  return conditions;
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
  const firstAvailable = catalogue.list.find((entry) => entry.available);
  const service = monitor?.service ?? firstAvailable?.service ?? '';
  const conditions = defaultConditions(serviceOf(catalogue, service));
  for (const [key, value] of Object.entries(monitor?.conditions ?? {})) {
    conditions[key] = { ...conditions[key], ...(value as ConditionValue) };
  }
  const interval =
    monitor?.intervalSeconds ?? Math.max(catalogue.intervalSeconds.default, shortestInterval(limits));
  const languages = languageOptions(catalogue);
  return {
    service,
    name: monitor?.name ?? '',
    url: monitor?.target.url ?? '',
    conditions,
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

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

/** A whole number within the bounds, or null with the field's error set. */
function checkBounds(
  errors: MonitorFormErrors,
  field: string,
  value: unknown,
  bounds: { min?: number | undefined; max?: number | undefined },
  unit = '',
): number | null {
  const number = toNumber(value);
  const within = inBounds(number, bounds);
  if (within !== null) return within;
  const suffix = unit ? ` ${unit}` : '';
  const format = (n: number) => n.toLocaleString('en-US');
  errors[field] =
    bounds.min !== undefined && bounds.max !== undefined
      ? `Enter a whole number from ${format(bounds.min)} to ${format(bounds.max)}${suffix}.`
      : 'Enter a whole number.';
  return null;
}

function inBounds(value: number | null, bounds: { min?: number | undefined; max?: number | undefined }) {
  if (value === null || !Number.isInteger(value)) return null;
  if (bounds.min !== undefined && value < bounds.min) return null;
  if (bounds.max !== undefined && value > bounds.max) return null;
  return value;
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
  if (!service) errors.service = 'Choose what to watch.';
  else if (!service.available) {
    errors.service = service.unavailableReason ?? `${service.name} monitors cannot be created yet.`;
  }

  const name = values.name.trim();
  if (!name) errors.name = 'Give the monitor a name.';
  else if (name.length > 100) errors.name = 'A name has at most 100 characters.';

  const target = websiteTarget.safeParse({ url: values.url });
  if (!target.success) errors.url = target.error.issues[0]?.message ?? 'Enter a full web address.';

  const conditions: Record<string, ConditionValue> = {};
  let enabledCount = 0;
  for (const definition of service?.conditions ?? []) {
    const current = values.conditions[definition.key] ?? { enabled: false };
    const condition: ConditionValue = { enabled: current.enabled };
    if (current.enabled) enabledCount += 1;
    for (const param of definition.params) {
      const field = `conditions.${definition.key}.${param.key}`;
      const raw = current[param.key] ?? param.default;
      if (param.type === 'number') {
        // A check that is off keeps a value the server accepts: its own when within bounds, else the default.
        const number = current.enabled
          ? checkBounds(errors, field, raw, param, param.unit)
          : inBounds(toNumber(raw), param);
        condition[param.key] = number ?? (typeof param.default === 'number' ? param.default : 0);
      } else {
        condition[param.key] = String(raw).trim();
      }
    }
    conditions[definition.key] = condition;
  }
  if (service && enabledCount === 0) errors.conditions = 'Turn on at least one check.';
  if (service?.service === 'website') {
    const parsed = websiteConditions.safeParse(conditions);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = ['conditions', ...issue.path.map(String)].join('.');
        if (!Object.keys(errors).some((key) => key.startsWith(field))) errors[field] = issue.message;
      }
    }
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

  if (Object.keys(errors).length > 0 || interval === null || repeat === null || confirmations === null) {
    return { errors, body: null };
  }
  return {
    errors,
    body: {
      name,
      service: 'website',
      target: { url: values.url.trim() },
      conditions: conditions as unknown as MonitorInput['conditions'],
      intervalSeconds: interval,
      repeatIntervalMinutes: repeat,
      confirmations,
      languageCode: values.languageCode,
      ...settings,
    },
  };
}

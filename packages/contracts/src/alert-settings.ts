/**
 * The spec's alert-settings rule (§5), used by the web form and the server alike.
 * Valid when no channel is ticked. Otherwise invalid when a ticked channel other than email lacks consent
 * (isAgree), when any other field of a ticked channel (besides checked and name) is empty, null or undefined,
 * or when the email channel's address is not of the form {email}.
 */
export interface ChannelSettings {
  checked: boolean;
  name?: string | null;
  isAgree: boolean;
  [field: string]: unknown;
}

export interface AlertSettings {
  callSettings?: ChannelSettings | null;
  smsSettings?: ChannelSettings | null;
  emailSettings?: (ChannelSettings & { email?: string | null }) | null;
}

const CHANNELS = ['callSettings', 'smsSettings', 'emailSettings'] as const;

/** No whitespace, exactly one @, and a top-level part of at least two characters. */
export function isEmailShape(value: string): boolean {
  if (/\s/.test(value)) return false;
  const parts = value.split('@');
  if (parts.length !== 2) return false;
  const [local, domain] = parts as [string, string];
  if (local.length === 0) return false;
  const labels = domain.split('.');
  const tld = labels[labels.length - 1] ?? '';
  return labels.length >= 2 && labels.slice(0, -1).every((label) => label.length > 0) && tld.length >= 2;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

export function isAlertSettingsValid(settings: AlertSettings): boolean {
  const ticked = CHANNELS.filter((channel) => settings[channel]?.checked);
  if (ticked.length === 0) return true;
  for (const channel of ticked) {
    const group = settings[channel] as ChannelSettings;
    if (channel !== 'emailSettings' && group.isAgree !== true) return false;
    for (const [field, value] of Object.entries(group)) {
      if (field === 'checked' || field === 'name') continue;
      if (isEmpty(value)) return false;
    }
    if (channel === 'emailSettings' && !isEmailShape(String(group.email ?? ''))) return false;
  }
  return true;
}

import type { ConditionDefinition, ServiceDefinition } from '@vigil/contracts';

/** The `website` service's catalogue entry: its conditions with their defaults and bounds. */
const WEBSITE_CONDITIONS: ConditionDefinition[] = [
  {
    key: 'http_status',
    label: 'Error status',
    description: 'The page answers with an HTTP status outside 2xx and 3xx, or does not answer at all.',
    enabledByDefault: true,
    params: [],
  },
  {
    key: 'timeout',
    label: 'Timeout',
    description: 'The page takes longer than this to answer.',
    enabledByDefault: true,
    params: [
      {
        key: 'timeoutMs',
        label: 'Give up after',
        type: 'number',
        unit: 'ms',
        default: 10_000,
        min: 1000,
        max: 30_000,
      },
    ],
  },
  {
    key: 'keyword',
    label: 'Keyword',
    description: 'A word or phrase is missing from the page (or present, such as "Sold out").',
    enabledByDefault: false,
    params: [
      { key: 'keyword', label: 'Keyword', type: 'text', default: '' },
      {
        key: 'mode',
        label: 'Alert when the keyword',
        type: 'text',
        default: 'missing',
        options: ['missing', 'present'],
      },
    ],
  },
  {
    key: 'slow_response',
    label: 'Slow response',
    description: 'The page answers, but slower than this.',
    enabledByDefault: false,
    params: [
      {
        key: 'thresholdMs',
        label: 'Slower than',
        type: 'number',
        unit: 'ms',
        default: 3000,
        min: 100,
        max: 30_000,
      },
    ],
  },
  {
    key: 'tls_expiry',
    label: 'Certificate expiring',
    description: 'The HTTPS certificate expires within this many days (or is already invalid).',
    enabledByDefault: true,
    params: [
      { key: 'days', label: 'Expires within', type: 'number', unit: 'days', default: 14, min: 1, max: 90 },
    ],
  },
  {
    key: 'password_page',
    label: 'Password page',
    description: 'The storefront shows a password page instead of the shop, so shoppers cannot buy.',
    enabledByDefault: false,
    params: [],
  },
];

export const WEBSITE_SERVICE: ServiceDefinition = {
  service: 'website',
  name: 'Website',
  description: 'Any web page or storefront address: status, speed, content and certificate.',
  available: true,
  unavailableReason: null,
  targetLabel: 'Page address (https://…)',
  conditions: WEBSITE_CONDITIONS,
};

import {
  AD_TYPES,
  APPROVAL_STATUSES,
  CAMPAIGN_PRIMARY_STATUSES,
  CAMPAIGN_PRIMARY_STATUS_REASONS,
  CHANNEL_TYPES,
  CUSTOMER_STATUSES,
  dateRange,
  dateToDay,
  DAYS_OF_WEEK,
  dayToDate,
  ENTITY_STATUSES,
  HISTORY_DAYS,
  REVIEW_STATUSES,
  servedMetrics,
  weekday,
  type AdsAd,
  type AdsAdGroup,
  type AdsCampaign,
  type AdsCustomer,
  type LocalClock,
  type Metrics,
} from './google-catalogue.ts';

/**
 * The Google Ads Query Language as the stand-in understands it: a tokenizer and parser for
 * `SELECT … FROM … [WHERE …] [ORDER BY …] [LIMIT n] [PARAMETERS …]`, the fields of five resources with the
 * attributed resources each may select, and an evaluator over one customer's records. Errors carry Google's
 * QueryError names.
 */
export class GaqlError extends Error {
  override readonly name = 'GaqlError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const RESOURCES = ['customer', 'customer_client', 'campaign', 'ad_group', 'ad_group_ad'] as const;
export type Resource = (typeof RESOURCES)[number];
/** The resources whose fields a query FROM each resource may use. */
const ATTRIBUTED: Record<Resource, readonly string[]> = {
  customer: ['customer'],
  customer_client: ['customer_client', 'customer'],
  campaign: ['campaign', 'customer'],
  ad_group: ['ad_group', 'campaign', 'customer'],
  ad_group_ad: ['ad_group_ad', 'ad_group', 'campaign', 'customer'],
};
const RESOURCE_KEY: Record<Resource, string> = {
  customer: 'customer',
  customer_client: 'customerClient',
  campaign: 'campaign',
  ad_group: 'adGroup',
  ad_group_ad: 'adGroupAd',
};

type FieldType = 'STRING' | 'INT64' | 'INT32' | 'ENUM' | 'BOOLEAN' | 'DATE' | 'RESOURCE_NAME' | 'MESSAGE';
type Value = string | number | boolean | null | readonly unknown[];

/** One row before serialization: the records it is about, its segment values, its metrics. */
export interface GaqlRow {
  customer: AdsCustomer;
  client?: { customer: AdsCustomer; level: number };
  campaign?: AdsCampaign;
  adGroup?: AdsAdGroup;
  ad?: AdsAd;
  day?: number;
  hour?: number;
  dayOfWeek?: number;
  metrics?: Metrics;
}

interface FieldDef {
  name: string;
  /** `customer`, `campaign`…, `segments` or `metrics`. */
  owner: string;
  type: FieldType;
  repeated?: boolean;
  enumValues?: readonly string[];
  get: (row: GaqlRow) => Value;
}

const FIELDS = new Map<string, FieldDef>();
function field(name: string, type: FieldType, get: (row: GaqlRow) => Value, more: Partial<FieldDef> = {}) {
  FIELDS.set(name, { name, owner: name.slice(0, name.indexOf('.')), type, get, ...more });
}
const rn = (c: AdsCustomer, rest = '') => `customers/${c.id}${rest}`;
const enumField = (values: readonly string[]) => ({ enumValues: values });

for (const [prefix, pick] of [
  ['customer', (r: GaqlRow) => r.customer],
  ['customer_client', (r: GaqlRow) => r.client!.customer],
] as const) {
  field(`${prefix}.descriptive_name`, 'STRING', (r) => pick(r).descriptiveName);
  field(`${prefix}.currency_code`, 'STRING', (r) => pick(r).currencyCode);
  field(`${prefix}.time_zone`, 'STRING', (r) => pick(r).timeZone);
  field(`${prefix}.status`, 'ENUM', (r) => pick(r).status, enumField(CUSTOMER_STATUSES));
  field(`${prefix}.manager`, 'BOOLEAN', (r) => pick(r).manager);
  field(`${prefix}.test_account`, 'BOOLEAN', (r) => pick(r).testAccount);
  field(`${prefix}.id`, 'INT64', (r) => pick(r).id);
}
field('customer.resource_name', 'RESOURCE_NAME', (r) => rn(r.customer));
field('customer_client.resource_name', 'RESOURCE_NAME', (r) =>
  rn(r.customer, `/customerClients/${r.client!.customer.id}`),
);
field('customer_client.client_customer', 'RESOURCE_NAME', (r) => rn(r.client!.customer));
field('customer_client.level', 'INT64', (r) => r.client!.level);
field('customer_client.hidden', 'BOOLEAN', () => false);

field('campaign.resource_name', 'RESOURCE_NAME', (r) => rn(r.customer, `/campaigns/${r.campaign!.id}`));
field('campaign.id', 'INT64', (r) => r.campaign!.id);
field('campaign.name', 'STRING', (r) => r.campaign!.name);
field('campaign.status', 'ENUM', (r) => r.campaign!.status, enumField(ENTITY_STATUSES));
field(
  'campaign.primary_status',
  'ENUM',
  (r) => r.campaign!.primaryStatus,
  enumField(CAMPAIGN_PRIMARY_STATUSES),
);
field('campaign.primary_status_reasons', 'ENUM', (r) => r.campaign!.primaryStatusReasons, {
  repeated: true,
  enumValues: CAMPAIGN_PRIMARY_STATUS_REASONS,
});
field('campaign.advertising_channel_type', 'ENUM', (r) => r.campaign!.channelType, enumField(CHANNEL_TYPES));

field('ad_group.resource_name', 'RESOURCE_NAME', (r) => rn(r.customer, `/adGroups/${r.adGroup!.id}`));
field('ad_group.id', 'INT64', (r) => r.adGroup!.id);
field('ad_group.name', 'STRING', (r) => r.adGroup!.name);
field('ad_group.status', 'ENUM', (r) => r.adGroup!.status, enumField(ENTITY_STATUSES));
field('ad_group.campaign', 'RESOURCE_NAME', (r) => rn(r.customer, `/campaigns/${r.adGroup!.campaign.id}`));

const adOf = (r: GaqlRow) => r.ad!;
field('ad_group_ad.resource_name', 'RESOURCE_NAME', (r) =>
  rn(r.customer, `/adGroupAds/${adOf(r).adGroup.id}~${adOf(r).id}`),
);
field('ad_group_ad.status', 'ENUM', (r) => adOf(r).status, enumField(ENTITY_STATUSES));
field('ad_group_ad.ad_group', 'RESOURCE_NAME', (r) => rn(r.customer, `/adGroups/${adOf(r).adGroup.id}`));
field('ad_group_ad.ad.resource_name', 'RESOURCE_NAME', (r) => rn(r.customer, `/ads/${adOf(r).id}`));
field('ad_group_ad.ad.id', 'INT64', (r) => adOf(r).id);
field('ad_group_ad.ad.name', 'STRING', (r) => adOf(r).name);
field('ad_group_ad.ad.type', 'ENUM', (r) => adOf(r).type, enumField(AD_TYPES));
field('ad_group_ad.ad.final_urls', 'STRING', (r) => adOf(r).finalUrls, { repeated: true });
field(
  'ad_group_ad.policy_summary.approval_status',
  'ENUM',
  (r) => adOf(r).approvalStatus,
  enumField(APPROVAL_STATUSES),
);
field(
  'ad_group_ad.policy_summary.review_status',
  'ENUM',
  (r) => adOf(r).reviewStatus,
  enumField(REVIEW_STATUSES),
);
field('ad_group_ad.policy_summary.policy_topic_entries', 'MESSAGE', (r) => adOf(r).policyTopics, {
  repeated: true,
});

field('metrics.impressions', 'INT64', (r) => r.metrics!.impressions);
field('metrics.clicks', 'INT64', (r) => r.metrics!.clicks);
field('metrics.cost_micros', 'INT64', (r) => r.metrics!.costMicros);
field('segments.date', 'DATE', (r) => r.day!);
field('segments.hour', 'INT32', (r) => r.hour!);
field('segments.day_of_week', 'ENUM', (r) => DAYS_OF_WEEK[r.dayOfWeek!]!, enumField(DAYS_OF_WEEK));

/** Google's JSON name of a field: `ad_group_ad.policy_summary.approval_status` → adGroupAd.policySummary.approvalStatus. */
export function jsonPath(name: string): string[] {
  return name.split('.').map((part) => part.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()));
}

// ---- Tokens. ----

interface Token {
  kind: 'word' | 'string' | 'number' | 'symbol' | 'end';
  text: string;
}

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const ch = query[i]!;
    if (/\s/.test(ch)) {
      i += 1;
    } else if (ch === "'" || ch === '"') {
      let text = '';
      let j = i + 1;
      for (; j < query.length && query[j] !== ch; j += 1) {
        if (query[j] === '\n')
          throw new GaqlError('PROHIBITED_NEWLINE_IN_STRING', 'Error in query: a string contains a newline.');
        if (query[j] === '\\') {
          j += 1;
          if (j >= query.length) break;
        }
        text += query[j];
      }
      if (j >= query.length)
        throw new GaqlError('STRING_NOT_TERMINATED', 'Error in query: unterminated string.');
      tokens.push({ kind: 'string', text });
      i = j + 1;
    } else if (/[A-Za-z_]/.test(ch)) {
      const match = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(query.slice(i))![0];
      tokens.push({ kind: 'word', text: match });
      i += match.length;
    } else if (/[-0-9]/.test(ch)) {
      const match = /^-?\d+(\.\d+)?/.exec(query.slice(i))?.[0];
      if (!match)
        throw new GaqlError('BAD_NUMBER', `Error in query: bad number near '${query.slice(i, i + 10)}'.`);
      tokens.push({ kind: 'number', text: match });
      i += match.length;
    } else {
      const symbol = ['!=', '>=', '<=', '=', '>', '<', ',', '(', ')'].find((s) => query.startsWith(s, i));
      if (!symbol) throw new GaqlError('BAD_SYMBOL', `Error in query: unexpected symbol '${ch}'.`);
      tokens.push({ kind: 'symbol', text: symbol });
      i += symbol.length;
    }
  }
  tokens.push({ kind: 'end', text: '' });
  return tokens;
}

// ---- The query. ----

type Literal = { kind: 'string' | 'number' | 'word'; text: string };
type Operator =
  | '='
  | '!='
  | '>'
  | '>='
  | '<'
  | '<='
  | 'IN'
  | 'NOT IN'
  | 'LIKE'
  | 'NOT LIKE'
  | 'IS NULL'
  | 'IS NOT NULL'
  | 'BETWEEN'
  | 'DURING'
  | 'CONTAINS ANY'
  | 'CONTAINS ALL'
  | 'CONTAINS NONE'
  | 'REGEXP_MATCH'
  | 'NOT REGEXP_MATCH';

export interface GaqlCondition {
  field: FieldDef;
  operator: Operator;
  /** Typed operands: one for comparisons, two for BETWEEN (and DURING's range), a list for IN. */
  values: (string | number | boolean)[];
  pattern?: RegExp;
}

export interface GaqlQuery {
  select: FieldDef[];
  from: Resource;
  where: GaqlCondition[];
  orderBy: { field: FieldDef; descending: boolean }[];
  limit: number | null;
  omitUnselectedResourceNames: boolean;
}

const DATE_RANGES = new Set([
  'TODAY',
  'YESTERDAY',
  'LAST_7_DAYS',
  'LAST_14_DAYS',
  'LAST_30_DAYS',
  'LAST_BUSINESS_WEEK',
  'THIS_MONTH',
  'LAST_MONTH',
  'THIS_WEEK_SUN_TODAY',
  'THIS_WEEK_MON_TODAY',
  'LAST_WEEK_SUN_SAT',
  'LAST_WEEK_MON_SUN',
]);

class Parser {
  #at = 0;
  constructor(readonly tokens: Token[]) {}

  peek(offset = 0): Token {
    return this.tokens[Math.min(this.#at + offset, this.tokens.length - 1)]!;
  }
  next(): Token {
    const token = this.peek();
    if (token.kind === 'end')
      throw new GaqlError('UNEXPECTED_END_OF_QUERY', 'Error in query: unexpected end of query.');
    this.#at += 1;
    return token;
  }
  isWord(word: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.kind === 'word' && token.text.toUpperCase() === word;
  }
  expectWord(word: string, code: string): void {
    if (this.peek().kind === 'end') this.next();
    if (!this.isWord(word))
      throw new GaqlError(code, `Error in query: expected ${word} near '${this.peek().text}'.`);
    this.#at += 1;
  }
  symbol(text: string): boolean {
    const token = this.peek();
    if (token.kind !== 'symbol' || token.text !== text) return false;
    this.#at += 1;
    return true;
  }
  name(): string {
    const token = this.next();
    if (token.kind !== 'word')
      throw new GaqlError('BAD_FIELD_NAME', `Error in query: expected a field name near '${token.text}'.`);
    return token.text;
  }
  literal(): Literal {
    const token = this.next();
    if (token.kind === 'symbol' || token.kind === 'end')
      throw new GaqlError('BAD_VALUE', `Error in query: expected a value near '${token.text}'.`);
    return { kind: token.kind, text: token.text };
  }
  list(): Literal[] {
    if (!this.symbol('('))
      throw new GaqlError(
        'EXPECTED_LIST',
        'Error in query: the operator needs a list of values in parentheses.',
      );
    const values: Literal[] = [];
    if (this.symbol(')'))
      throw new GaqlError('PROHIBITED_EMPTY_LIST_IN_CONDITION', 'Error in query: a list is empty.');
    do values.push(this.literal());
    while (this.symbol(','));
    if (!this.symbol(')'))
      throw new GaqlError('UNEXPECTED_INPUT', `Error in query: expected ')' near '${this.peek().text}'.`);
    return values;
  }
  get done(): boolean {
    return this.peek().kind === 'end';
  }
}

/** Parses and checks a query against the fields FROM its resource may use. */
export function parseGaql(text: string): GaqlQuery {
  const p = new Parser(tokenize(text));
  if (!p.isWord('SELECT'))
    throw new GaqlError('EXPECTED_SELECT', 'Error in query: a query must start with SELECT.');
  p.next();
  const names: string[] = [];
  do names.push(p.name());
  while (p.symbol(','));
  if (p.done) throw new GaqlError('EXPECTED_FROM', 'Error in query: FROM is missing.');
  p.expectWord('FROM', 'EXPECTED_FROM');
  const fromName = p.name();
  if (!(RESOURCES as readonly string[]).includes(fromName)) {
    throw new GaqlError(
      'BAD_RESOURCE_TYPE_IN_FROM_CLAUSE',
      `Error in query: invalid resource '${fromName}' in FROM clause.`,
    );
  }
  const from = fromName as Resource;
  const lookup = (name: string, clause: 'SELECT' | 'WHERE' | 'ORDER_BY') => resolveField(name, from, clause);
  const select = [...new Set(names)].map((name) => lookup(name, 'SELECT'));

  const where: GaqlCondition[] = [];
  if (p.isWord('WHERE')) {
    p.next();
    do where.push(condition(p, lookup(p.name(), 'WHERE')));
    while (p.isWord('AND') && p.next());
  }
  const orderBy: GaqlQuery['orderBy'] = [];
  if (p.isWord('ORDER')) {
    p.next();
    p.expectWord('BY', 'EXPECTED_BY');
    do {
      const f = lookup(p.name(), 'ORDER_BY');
      let descending = false;
      if (p.isWord('ASC') || p.isWord('DESC')) descending = p.next().text.toUpperCase() === 'DESC';
      orderBy.push({ field: f, descending });
    } while (p.symbol(','));
  }
  let limit: number | null = null;
  if (p.isWord('LIMIT')) {
    p.next();
    const token = p.next();
    if (token.kind !== 'number' || !/^\d+$/.test(token.text))
      throw new GaqlError('BAD_LIMIT_VALUE', `Error in query: bad LIMIT value '${token.text}'.`);
    limit = Number(token.text);
    if (limit < 1) throw new GaqlError('LIMIT_VALUE_TOO_LOW', 'Error in query: LIMIT must be at least 1.');
  }
  let omitUnselectedResourceNames = false;
  if (p.isWord('PARAMETERS')) {
    p.next();
    do {
      const name = p.name();
      if (!p.symbol('=')) throw new GaqlError('BAD_OPERATOR', 'Error in query: a parameter needs =.');
      const value = p.literal().text.toLowerCase();
      if (name !== 'include_drafts' && name !== 'omit_unselected_resource_names')
        throw new GaqlError('BAD_PARAMETER_NAME', `Error in query: unknown parameter '${name}'.`);
      if (value !== 'true' && value !== 'false')
        throw new GaqlError(
          'BAD_PARAMETER_VALUE',
          `Error in query: parameter '${name}' must be true or false.`,
        );
      if (name === 'omit_unselected_resource_names') omitUnselectedResourceNames = value === 'true';
    } while (p.symbol(','));
  }
  if (!p.done)
    throw new GaqlError('UNEXPECTED_INPUT', `Error in query: unexpected input '${p.peek().text}'.`);
  if (select.some((f) => f.name === 'segments.date') && !hasFiniteDateRange(where)) {
    throw new GaqlError(
      'EXPECTED_FILTERS_ON_DATE_RANGE',
      'Error in query: segments.date is selected, so the WHERE clause must restrict it to a finite date range.',
    );
  }
  return { select, from, where, orderBy, limit, omitUnselectedResourceNames };
}

function resolveField(name: string, from: Resource, clause: 'SELECT' | 'WHERE' | 'ORDER_BY'): FieldDef {
  const f = FIELDS.get(name);
  if (!f) throw new GaqlError('UNRECOGNIZED_FIELD', `Unrecognized field in the query: '${name}'.`);
  const where = clause === 'WHERE' ? 'WHERE' : 'SELECT';
  if (f.owner === 'metrics' || f.owner === 'segments') {
    if (from === 'customer_client') {
      const kind = f.owner === 'metrics' ? 'METRIC' : 'SEGMENT';
      throw new GaqlError(
        `PROHIBITED_${kind}_IN_SELECT_OR_WHERE_CLAUSE`,
        `Cannot select or filter on the following ${kind.toLowerCase()}s: '${name}' (could not support requested resources: '${from}').`,
      );
    }
  } else if (!ATTRIBUTED[from].includes(f.owner)) {
    throw new GaqlError(
      clause === 'ORDER_BY'
        ? 'PROHIBITED_FIELD_IN_ORDER_BY_CLAUSE'
        : `PROHIBITED_RESOURCE_TYPE_IN_${where}_CLAUSE`,
      `Cannot use '${name}' in a query FROM ${from}: ${f.owner} is not one of its attributed resources.`,
    );
  }
  if (clause === 'ORDER_BY' && f.repeated)
    throw new GaqlError('PROHIBITED_FIELD_IN_ORDER_BY_CLAUSE', `'${name}' cannot be ordered by.`);
  if (clause === 'WHERE' && f.type === 'MESSAGE')
    throw new GaqlError('PROHIBITED_FIELD_IN_WHERE_CLAUSE', `'${name}' cannot be filtered on.`);
  return f;
}

function condition(p: Parser, f: FieldDef): GaqlCondition {
  const token = p.next();
  const upper = token.text.toUpperCase();
  const word = (w: string) => p.isWord(w) && p.next();
  let operator: Operator;
  let literals: Literal[] = [];
  if (token.kind === 'symbol' && ['=', '!=', '>', '>=', '<', '<='].includes(token.text)) {
    operator = token.text as Operator;
    literals = [p.literal()];
  } else if (token.kind !== 'word') {
    throw new GaqlError('BAD_OPERATOR', `Error in query: invalid operator '${token.text}'.`);
  } else if (upper === 'IN') {
    operator = 'IN';
    literals = p.list();
  } else if (upper === 'NOT' && word('IN')) {
    operator = 'NOT IN';
    literals = p.list();
  } else if (upper === 'LIKE' || (upper === 'NOT' && word('LIKE'))) {
    operator = upper === 'LIKE' ? 'LIKE' : 'NOT LIKE';
    literals = [p.literal()];
  } else if (upper === 'REGEXP_MATCH' || (upper === 'NOT' && word('REGEXP_MATCH'))) {
    operator = upper === 'REGEXP_MATCH' ? 'REGEXP_MATCH' : 'NOT REGEXP_MATCH';
    literals = [p.literal()];
  } else if (upper === 'IS') {
    operator = word('NOT') ? 'IS NOT NULL' : 'IS NULL';
    p.expectWord('NULL', 'BAD_OPERATOR');
  } else if (upper === 'BETWEEN') {
    operator = 'BETWEEN';
    literals = [p.literal()];
    if (p.done)
      throw new GaqlError(
        'EXPECTED_VALUE_WITH_BETWEEN_OPERATOR',
        'Error in query: BETWEEN needs two values.',
      );
    p.expectWord('AND', 'EXPECTED_AND');
    literals.push(p.literal());
  } else if (upper === 'DURING') {
    operator = 'DURING';
    const range = p.next();
    if (f.type !== 'DATE')
      throw new GaqlError('OPERATOR_FIELD_MISMATCH', `DURING cannot be used with '${f.name}'.`);
    if (range.kind !== 'word' || !DATE_RANGES.has(range.text.toUpperCase()))
      throw new GaqlError(
        'INVALID_VALUE_WITH_DURING_OPERATOR',
        `'${range.text}' is not a date range literal.`,
      );
    return { field: f, operator, values: [range.text.toUpperCase()] };
  } else if (upper === 'CONTAINS' && (p.isWord('ANY') || p.isWord('ALL') || p.isWord('NONE'))) {
    operator = `CONTAINS ${p.next().text.toUpperCase()}` as Operator;
    literals = p.list();
  } else {
    throw new GaqlError('BAD_OPERATOR', `Error in query: invalid operator '${token.text}'.`);
  }
  const isContains = operator.startsWith('CONTAINS');
  if (Boolean(f.repeated) !== isContains && !operator.startsWith('IS'))
    throw new GaqlError('OPERATOR_FIELD_MISMATCH', `Operator ${operator} cannot be used with '${f.name}'.`);
  if (
    (operator.includes('LIKE') || operator.includes('REGEXP')) &&
    f.type !== 'STRING' &&
    f.type !== 'RESOURCE_NAME'
  )
    throw new GaqlError('OPERATOR_FIELD_MISMATCH', `Operator ${operator} cannot be used with '${f.name}'.`);
  const values = literals.map((l) => typed(f, l, operator));
  const result: GaqlCondition = { field: f, operator, values };
  if (operator.includes('LIKE')) result.pattern = likePattern(String(values[0]));
  if (operator.includes('REGEXP')) {
    try {
      result.pattern = new RegExp(String(values[0]));
    } catch {
      throw new GaqlError('BAD_VALUE', `'${values[0]}' is not a regular expression.`);
    }
  }
  return result;
}

function typed(f: FieldDef, l: Literal, operator: Operator): string | number | boolean {
  switch (f.type) {
    case 'STRING':
    case 'RESOURCE_NAME':
      if (l.kind !== 'string')
        throw new GaqlError('INVALID_STRING_VALUE', `'${l.text}' must be a quoted string for '${f.name}'.`);
      return l.text;
    case 'INT64':
    case 'INT32':
      if (!/^-?\d+$/.test(l.text))
        throw new GaqlError('BAD_NUMBER', `'${l.text}' is not a number for '${f.name}'.`);
      return Number(l.text);
    case 'BOOLEAN':
      if (!/^(true|false)$/i.test(l.text))
        throw new GaqlError('BAD_VALUE', `'${l.text}' is not true or false.`);
      return l.text.toLowerCase() === 'true';
    case 'DATE': {
      const day = dateToDay(l.text);
      if (day === null) {
        const code = operator === 'BETWEEN' ? 'INVALID_VALUE_WITH_BETWEEN_OPERATOR' : 'INVALID_DATE_FORMAT';
        throw new GaqlError(code, `Invalid date '${l.text}': expected 'YYYY-MM-DD'.`);
      }
      return day;
    }
    default:
      if (!f.enumValues?.includes(l.text))
        throw new GaqlError('BAD_ENUM_CONSTANT', `'${l.text}' is not a valid value of '${f.name}'.`);
      return l.text;
  }
}

function likePattern(like: string): RegExp {
  let source = '';
  for (let i = 0; i < like.length; i += 1) {
    const ch = like[i]!;
    // GAQL escapes a literal % or _ in square brackets: [%], [_].
    if (ch === '[' && like[i + 2] === ']') {
      source += like[i + 1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      i += 2;
    } else if (ch === '%') source += '.*';
    else if (ch === '_') source += '.';
    else source += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}

function hasFiniteDateRange(where: GaqlCondition[]): boolean {
  const dates = where.filter((c) => c.field.name === 'segments.date');
  const has = (ops: Operator[]) => dates.some((c) => ops.includes(c.operator));
  return has(['DURING', 'BETWEEN', '=', 'IN']) || (has(['>', '>=']) && has(['<', '<=']));
}

// ---- Evaluation. ----

/** What a query runs against: one customer, the customers below it, and the clock in its time zone. */
export interface GaqlSource {
  customer: AdsCustomer;
  findCustomer: (id: string) => AdsCustomer | undefined;
  clock: LocalClock;
}

function matches(c: GaqlCondition, value: Value, today: number): boolean {
  const [a, b] = c.values;
  if (c.operator === 'IS NULL') return value === null || (Array.isArray(value) && value.length === 0);
  if (c.operator === 'IS NOT NULL') return !(value === null || (Array.isArray(value) && value.length === 0));
  if (Array.isArray(value)) {
    const set = new Set(value.map(String));
    if (c.operator === 'CONTAINS ANY') return c.values.some((v) => set.has(String(v)));
    if (c.operator === 'CONTAINS ALL') return c.values.every((v) => set.has(String(v)));
    return !c.values.some((v) => set.has(String(v)));
  }
  const v =
    typeof value === 'string' && (c.field.type === 'INT64' || c.field.type === 'INT32')
      ? Number(value)
      : value;
  switch (c.operator) {
    case '=':
      return v === a;
    case '!=':
      return v !== a;
    case '>':
      return (v as number) > (a as number);
    case '>=':
      return (v as number) >= (a as number);
    case '<':
      return (v as number) < (a as number);
    case '<=':
      return (v as number) <= (a as number);
    case 'IN':
      return c.values.includes(v as string);
    case 'NOT IN':
      return !c.values.includes(v as string);
    case 'BETWEEN':
      return (v as number) >= (a as number) && (v as number) <= (b as number);
    case 'DURING': {
      const [start, end] = dateRange(String(a), today);
      return (v as number) >= start && (v as number) <= end;
    }
    case 'LIKE':
    case 'REGEXP_MATCH':
      return c.pattern!.test(String(v));
    default: // NOT LIKE, NOT REGEXP_MATCH
      return !c.pattern!.test(String(v));
  }
}

function baseRows(query: GaqlQuery, source: GaqlSource): GaqlRow[] {
  const customer = source.customer;
  switch (query.from) {
    case 'customer':
      return [{ customer }];
    case 'customer_client': {
      const rows: GaqlRow[] = [{ customer, client: { customer, level: 0 } }];
      for (let i = 0; i < rows.length; i += 1) {
        const { customer: parent, level } = rows[i]!.client!;
        for (const id of parent.clientIds) {
          const child = source.findCustomer(id);
          if (child) rows.push({ customer, client: { customer: child, level: level + 1 } });
        }
      }
      return rows;
    }
    case 'campaign':
      return customer.campaigns.map((campaign) => ({ customer, campaign }));
    case 'ad_group':
      return customer.adGroups.map((adGroup) => ({ customer, campaign: adGroup.campaign, adGroup }));
    case 'ad_group_ad':
      return customer.ads.map((ad) => ({ customer, campaign: ad.adGroup.campaign, adGroup: ad.adGroup, ad }));
  }
}

/**
 * Runs a parsed query: the FROM resource's records that pass the attribute conditions, broken down by the
 * selected segments with metrics summed over the hours the segment conditions leave; segmented rows whose
 * selected metrics are all zero are left out, as Google does. Then ORDER BY and LIMIT.
 */
export function runGaql(
  query: GaqlQuery,
  source: GaqlSource,
): { rows: Record<string, unknown>[]; fieldMask: string } {
  const { clock } = source;
  const today = clock.today;
  const referenced = [
    ...query.select,
    ...query.where.map((c) => c.field),
    ...query.orderBy.map((o) => o.field),
  ];
  const usesMetrics = referenced.some((f) => f.owner === 'metrics');
  const segments = query.select.filter((f) => f.owner === 'segments');
  const segmentConditions = query.where.filter((c) => c.field.owner === 'segments');
  const metricConditions = query.where.filter((c) => c.field.owner === 'metrics');
  const attributeConditions = query.where.filter(
    (c) => c.field.owner !== 'segments' && c.field.owner !== 'metrics',
  );
  if (usesMetrics && source.customer.manager) {
    throw new GaqlError(
      'REQUESTED_METRICS_FOR_MANAGER',
      'Metrics cannot be requested for a manager account. To retrieve metrics, issue separate requests against each client account under the manager account.',
    );
  }
  let rows = baseRows(query, source).filter((row) =>
    attributeConditions.every((c) => matches(c, c.field.get(row), today)),
  );
  if (usesMetrics || segments.length > 0) {
    const hours: (GaqlRow & { day: number; hour: number; dayOfWeek: number })[] = [];
    for (let day = today - HISTORY_DAYS + 1; day <= today; day += 1) {
      for (let hour = 0; hour <= (day === today ? clock.hour : 23); hour += 1) {
        const cell = { customer: source.customer, day, hour, dayOfWeek: weekday(day) };
        if (segmentConditions.every((c) => matches(c, c.field.get(cell), today))) hours.push(cell);
      }
    }
    const selectedMetrics = query.select.filter((f) => f.owner === 'metrics');
    const judged = selectedMetrics.length
      ? selectedMetrics
      : [...FIELDS.values()].filter((f) => f.owner === 'metrics');
    rows = rows.flatMap((row) => {
      const groups = new Map<string, GaqlRow>();
      for (const cell of hours) {
        const key = segments.map((s) => s.get(cell)).join('|');
        let group = groups.get(key);
        if (!group) {
          group = { ...row, metrics: { impressions: 0, clicks: 0, costMicros: 0 } };
          for (const s of segments) {
            if (s.name === 'segments.date') group.day = cell.day;
            if (s.name === 'segments.hour') group.hour = cell.hour;
            if (s.name === 'segments.day_of_week') group.dayOfWeek = cell.dayOfWeek;
          }
          groups.set(key, group);
        }
        const ads = row.ad ? [row.ad] : (row.adGroup?.ads ?? null);
        const m = servedMetrics(row.customer, row.campaign, ads, cell.day, cell.hour, clock);
        group.metrics!.impressions += m.impressions;
        group.metrics!.clicks += m.clicks;
        group.metrics!.costMicros += m.costMicros;
      }
      if (groups.size === 0 && segments.length === 0)
        return [{ ...row, metrics: { impressions: 0, clicks: 0, costMicros: 0 } }];
      const list = [...groups.values()];
      return segments.length ? list.filter((g) => judged.some((f) => f.get(g) !== 0)) : list;
    });
    rows = rows.filter((row) => metricConditions.every((c) => matches(c, c.field.get(row), today)));
  }
  if (query.orderBy.length) {
    rows.sort((x, y) => {
      for (const { field: f, descending } of query.orderBy) {
        const order = compare(f.get(x), f.get(y));
        if (order !== 0) return descending ? -order : order;
      }
      return 0;
    });
  }
  if (query.limit !== null) rows = rows.slice(0, query.limit);
  return {
    rows: rows.map((row) => serialize(query, row)),
    fieldMask: query.select.map((f) => jsonPath(f.name).join('.')).join(','),
  };
}

function compare(a: Value, b: Value): number {
  const x =
    typeof a === 'string' && /^\d+$/.test(a) && typeof b === 'string' && /^\d+$/.test(b) ? Number(a) : a;
  const y = x === a ? b : Number(b);
  if (x === y) return 0;
  if (x === null) return -1;
  if (y === null) return 1;
  return (x as number | string) < (y as number | string) ? -1 : 1;
}

function jsonValue(f: FieldDef, value: Value): unknown {
  if (f.type === 'INT64') return String(value);
  if (f.type === 'DATE') return dayToDate(value as number);
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' ? { ...v } : v));
  return value;
}

function serialize(query: GaqlQuery, row: GaqlRow): Record<string, unknown> {
  const out: Record<string, Record<string, unknown>> = {};
  const put = (name: string, value: unknown) => {
    const path = jsonPath(name);
    let node: Record<string, unknown> = out;
    for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    node[path[path.length - 1]!] = value;
  };
  for (const f of query.select) {
    const value = f.get(row);
    // Proto3 JSON leaves out empty repeated fields.
    if (Array.isArray(value) && value.length === 0) continue;
    put(f.name, jsonValue(f, value));
  }
  if (!query.omitUnselectedResourceNames) {
    for (const resource of ATTRIBUTED[query.from]) {
      const key = RESOURCE_KEY[resource as Resource];
      if (resource === query.from || out[key]) {
        out[key] = { resourceName: FIELDS.get(`${resource}.resource_name`)!.get(row), ...out[key] };
      }
    }
    const ad = out.adGroupAd?.ad as Record<string, unknown> | undefined;
    if (ad) out.adGroupAd!.ad = { resourceName: FIELDS.get('ad_group_ad.ad.resource_name')!.get(row), ...ad };
  }
  return out;
}

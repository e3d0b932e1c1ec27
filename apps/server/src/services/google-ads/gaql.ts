/**
 * The Google Ads Query Language, written from parts: every field name is checked against GAQL's grammar and
 * every value is a literal of its kind (a string quoted and escaped, a date, an enum constant, a number), so a
 * name or an id that came from a person can never change what a query asks.
 */

/** A condition of the WHERE clause, built only by the functions below. */
export interface GaqlCondition {
  readonly gaql: string;
}

export interface GaqlQuery {
  select: readonly string[];
  from: string;
  where?: readonly GaqlCondition[];
  orderBy?: readonly { field: string; descending?: boolean }[];
  limit?: number;
}

export class GaqlBuildError extends Error {
  override readonly name = 'GaqlBuildError';
}

const FIELD = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;
const RESOURCE = /^[a-z][a-z0-9_]*$/;
const ENUM = /^[A-Z][A-Z0-9_]*$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function fieldName(name: string): string {
  if (!FIELD.test(name)) throw new GaqlBuildError(`"${name}" is not a GAQL field name.`);
  return name;
}

/** A string literal: single quotes, with `\` and `'` escaped by a backslash. */
export function quote(value: string): string {
  if (/[\r\n]/.test(value)) throw new GaqlBuildError('A GAQL string cannot hold a line break.');
  return `'${value.replace(/[\\']/g, (ch) => `\\${ch}`)}'`;
}

/** A value as GAQL writes it: numbers bare, booleans bare, enum constants and dates checked, strings quoted. */
export type GaqlValue =
  | { kind: 'string'; value: string }
  | { kind: 'enum'; value: string }
  | { kind: 'date'; value: string }
  | { kind: 'number'; value: number | bigint | string }
  | { kind: 'boolean'; value: boolean };

export const text = (value: string): GaqlValue => ({ kind: 'string', value });
export const enumValue = (value: string): GaqlValue => ({ kind: 'enum', value });
export const date = (value: string): GaqlValue => ({ kind: 'date', value });
export const int = (value: number | bigint | string): GaqlValue => ({ kind: 'number', value });
export const bool = (value: boolean): GaqlValue => ({ kind: 'boolean', value });

export function literal(value: GaqlValue): string {
  switch (value.kind) {
    case 'string':
      return quote(value.value);
    case 'enum':
      if (!ENUM.test(value.value)) throw new GaqlBuildError(`"${value.value}" is not an enum constant.`);
      return `'${value.value}'`;
    case 'date': {
      const valid =
        DATE.test(value.value) &&
        new Date(`${value.value}T00:00:00Z`).toISOString().slice(0, 10) === value.value;
      if (!valid) throw new GaqlBuildError(`"${value.value}" is not a date (YYYY-MM-DD).`);
      return `'${value.value}'`;
    }
    case 'number': {
      const written = String(value.value);
      if (!/^-?\d+$/.test(written)) throw new GaqlBuildError(`"${written}" is not a whole number.`);
      return written;
    }
    case 'boolean':
      return value.value ? 'TRUE' : 'FALSE';
  }
}

type Comparison = '=' | '!=' | '>' | '>=' | '<' | '<=';

export function compare(field: string, operator: Comparison, value: GaqlValue): GaqlCondition {
  return { gaql: `${fieldName(field)} ${operator} ${literal(value)}` };
}

export const eq = (field: string, value: GaqlValue) => compare(field, '=', value);
export const ne = (field: string, value: GaqlValue) => compare(field, '!=', value);

export function isIn(field: string, values: readonly GaqlValue[], not = false): GaqlCondition {
  if (values.length === 0) throw new GaqlBuildError(`IN needs at least one value for ${field}.`);
  return { gaql: `${fieldName(field)} ${not ? 'NOT IN' : 'IN'} (${values.map(literal).join(', ')})` };
}

export function between(field: string, from: GaqlValue, to: GaqlValue): GaqlCondition {
  return { gaql: `${fieldName(field)} BETWEEN ${literal(from)} AND ${literal(to)}` };
}

/** `SELECT … FROM … [WHERE … AND …] [ORDER BY …] [LIMIT n]`. */
export function buildQuery(query: GaqlQuery): string {
  if (query.select.length === 0) throw new GaqlBuildError('A GAQL query selects at least one field.');
  if (!RESOURCE.test(query.from)) throw new GaqlBuildError(`"${query.from}" is not a GAQL resource.`);
  let gaql = `SELECT ${query.select.map(fieldName).join(', ')} FROM ${query.from}`;
  if (query.where?.length) gaql += ` WHERE ${query.where.map((c) => c.gaql).join(' AND ')}`;
  if (query.orderBy?.length) {
    gaql += ` ORDER BY ${query.orderBy
      .map((order) => `${fieldName(order.field)}${order.descending ? ' DESC' : ' ASC'}`)
      .join(', ')}`;
  }
  if (query.limit !== undefined) {
    if (!Number.isInteger(query.limit) || query.limit < 1)
      throw new GaqlBuildError(`LIMIT must be a whole number from 1: ${query.limit}.`);
    gaql += ` LIMIT ${query.limit}`;
  }
  return gaql;
}

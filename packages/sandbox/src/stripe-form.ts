import { invalidParam, missingParam } from './stripe-errors.ts';

/**
 * Stripe's v1 parameters: form-encoded (query string for GET and DELETE) with bracket notation —
 * `line_items[0][price]=…`, `metadata[key]=…`, `expand[]=…` or `expand[0]=…` — read into nested values.
 */
export type ParamValue = string | ParamObject | ParamValue[];
export interface ParamObject {
  [name: string]: ParamValue;
}

/** `a[b][0][]` → ['a', 'b', '0', '']; a name without brackets is one segment. */
function segments(name: string): string[] {
  const open = name.indexOf('[');
  if (open <= 0) return [name];
  const parts = [name.slice(0, open)];
  for (const match of name.slice(open).matchAll(/\[([^\]]*)\]/g)) parts.push(match[1]!);
  return parts;
}

/** Objects whose keys are all indices (`items[0]`, `items[1]`) become arrays, in index order. */
function arrays(value: ParamValue): ParamValue {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(arrays);
  const keys = Object.keys(value);
  const converted: ParamObject = {};
  for (const key of keys) converted[key] = arrays(value[key]!);
  if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((key) => converted[key]!);
  }
  return converted;
}

export function parseStripeParams(raw: string): ParamObject {
  const root: ParamObject = {};
  for (const [name, value] of new URLSearchParams(raw)) {
    const path = segments(name);
    let node: ParamObject = root;
    for (let i = 0; i < path.length; i += 1) {
      const key = path[i]!;
      const last = i === path.length - 1;
      if (key === '') {
        // `name[]`: append to the list kept under the parent's key, numbered in arrival order.
        const index = String(Object.keys(node).length);
        if (last) node[index] = value;
        else node = (node[index] = {}) as ParamObject;
        continue;
      }
      if (last) {
        node[key] = value;
        break;
      }
      const next = node[key];
      node = (typeof next === 'object' && !Array.isArray(next) ? next : (node[key] = {})) as ParamObject;
    }
  }
  return arrays(root) as ParamObject;
}

/** The same parameters as a stable string (keys sorted), to compare two requests made with one Idempotency-Key. */
export function fingerprint(value: ParamValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(fingerprint).join(',')}]`;
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${fingerprint(value[key]!)}`)
    .join(',')}}`;
}

const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 };

/**
 * Reads typed parameters with Stripe's errors, naming each one as the request did (`line_items[0][price]`).
 * An empty string is how the SDK sends null: "unset".
 */
export class Params {
  constructor(
    readonly values: ParamObject,
    private readonly prefix = '',
  ) {}

  name(key: string): string {
    return this.prefix ? `${this.prefix}[${key}]` : key;
  }

  has(key: string): boolean {
    return this.values[key] !== undefined;
  }

  string(key: string): string | undefined {
    const value = this.values[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw invalidParam(`Invalid string: ${this.name(key)}`, this.name(key));
    return value;
  }

  /** A string that must be there and not empty. */
  required(key: string): string {
    const value = this.string(key);
    if (value === undefined) throw missingParam(this.name(key));
    if (value === '') {
      throw invalidParam(
        `You passed an empty string for '${this.name(key)}'. We assume empty values are an attempt to unset a parameter; however '${this.name(key)}' cannot be unset. You should remove '${this.name(key)}' from your request or supply a non-empty value.`,
        this.name(key),
        'parameter_invalid_empty',
      );
    }
    return value;
  }

  /** A non-empty string, or undefined when absent or unset. */
  optional(key: string): string | undefined {
    const value = this.string(key);
    return value === '' ? undefined : value;
  }

  boolean(key: string): boolean | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw invalidParam(`Invalid boolean: ${value}`, this.name(key));
  }

  integer(key: string): number | undefined {
    const value = this.optional(key);
    if (value === undefined) return undefined;
    if (!/^-?\d+$/.test(value)) {
      throw invalidParam(`Invalid integer: ${value}`, this.name(key), 'parameter_invalid_integer');
    }
    return Number(value);
  }

  object(key: string): Params | undefined {
    const value = this.values[key];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw invalidParam(`Invalid object: ${this.name(key)}`, this.name(key));
    }
    return new Params(value, this.name(key));
  }

  /** A list of objects: `items[0][price]`. */
  objects(key: string): Params[] {
    const value = this.values[key];
    if (value === undefined || value === '') return [];
    if (!Array.isArray(value)) throw invalidParam(`Invalid array: ${this.name(key)}`, this.name(key));
    return value.map((item, index) => {
      const name = `${this.name(key)}[${index}]`;
      if (typeof item !== 'object' || Array.isArray(item))
        throw invalidParam(`Invalid object: ${name}`, name);
      return new Params(item, name);
    });
  }

  /** A list of strings: `expand[]`, `lookup_keys[]`. */
  strings(key: string): string[] {
    const value = this.values[key];
    if (value === undefined || value === '') return [];
    const list = Array.isArray(value) ? value : [value];
    return list.map((item) => {
      if (typeof item !== 'string') throw invalidParam(`Invalid array: ${this.name(key)}`, this.name(key));
      return item;
    });
  }

  /**
   * Metadata after the update `metadata[key]=value` makes to `current`: an empty value removes the key, an
   * empty `metadata` clears it. Undefined when the request does not touch it.
   */
  metadata(key: string, current: Record<string, string> = {}): Record<string, string> | undefined {
    const value = this.values[key];
    if (value === undefined) return undefined;
    if (value === '') return {};
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw invalidParam(`Invalid hash: ${this.name(key)}`, this.name(key));
    }
    const next = { ...current };
    for (const [name, item] of Object.entries(value)) {
      const param = `${this.name(key)}[${name}]`;
      if (typeof item !== 'string') throw invalidParam(`Invalid string: ${param}`, param);
      if (name.length > METADATA_LIMITS.keyLength) {
        throw invalidParam(`Metadata keys can have up to ${METADATA_LIMITS.keyLength} characters.`, param);
      }
      if (item.length > METADATA_LIMITS.valueLength) {
        throw invalidParam(
          `Metadata values can have up to ${METADATA_LIMITS.valueLength} characters.`,
          param,
        );
      }
      if (item === '') delete next[name];
      else next[name] = item;
    }
    if (Object.keys(next).length > METADATA_LIMITS.keys) {
      throw invalidParam(`Metadata can have up to ${METADATA_LIMITS.keys} keys.`, this.name(key));
    }
    return next;
  }
}

import type { FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';

/** Returns the value itself when it holds nothing undeclared, else a copy without the undeclared keys. */
type Strip = (value: unknown) => unknown;

const identity: Strip = (value) => value;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What a response schema lets out of a value: objects keep only their declared keys, as zod's parse would
 * strip the rest, so a field a handler did not mean to send (a column, a hash) never leaves. Values are not
 * checked: the route's types already bind each handler's answer to its schema. Nothing is copied unless
 * something has to go, so the usual answer costs one walk over its keys.
 */
export function compileStrip(schema: z.core.$ZodType): Strip {
  const def = (schema as z.core.$ZodTypes)._zod.def;
  switch (def.type) {
    case 'object': {
      const fields = Object.entries(def.shape).map(([key, field]) => [key, compileStrip(field)] as const);
      const nested = fields.filter(([, strip]) => strip !== identity);
      const declared = new Set(fields.map(([key]) => key));
      const keepUndeclared = def.catchall !== undefined && def.catchall._zod.def.type !== 'never';
      return (value) => {
        if (!isObject(value)) return value;
        let changed = false;
        if (!keepUndeclared) {
          for (const key in value) {
            if (!declared.has(key)) {
              changed = true;
              break;
            }
          }
        }
        const stripped: [string, unknown][] = [];
        for (const [key, strip] of nested) {
          const item = value[key];
          const out = item === undefined ? item : strip(item);
          if (out !== item) stripped.push([key, out]);
        }
        if (!changed && stripped.length === 0) return value;
        const out: Record<string, unknown> = keepUndeclared ? { ...value } : {};
        if (!keepUndeclared) for (const [key] of fields) if (value[key] !== undefined) out[key] = value[key];
        for (const [key, item] of stripped) out[key] = item;
        return out;
      };
    }
    case 'array': {
      const strip = compileStrip(def.element);
      if (strip === identity) return identity;
      return (value) => {
        if (!Array.isArray(value)) return value;
        let copy: unknown[] | undefined;
        value.forEach((item, i) => {
          const out = strip(item);
          if (out !== item) (copy ??= [...value])[i] = out;
        });
        return copy ?? value;
      };
    }
    case 'record': {
      const strip = compileStrip(def.valueType);
      if (strip === identity) return identity;
      return (value) => {
        if (!isObject(value)) return value;
        let copy: Record<string, unknown> | undefined;
        for (const [key, item] of Object.entries(value)) {
          const out = strip(item);
          if (out !== item) (copy ??= { ...value })[key] = out;
        }
        return copy ?? value;
      };
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return compileStrip(def.innerType);
    case 'pipe':
      return compileStrip(def.out._zod.def.type === 'transform' ? def.in : def.out);
    case 'lazy': {
      let strip: Strip | undefined;
      return (value) => (strip ??= compileStrip(def.getter()))(value);
    }
    case 'intersection': {
      const left = compileStrip(def.left);
      const right = compileStrip(def.right);
      return (value) =>
        isObject(value) ? { ...(left(value) as object), ...(right(value) as object) } : value;
    }
    case 'union': {
      // A discriminated union names its branch in one field: no need to try each.
      const discriminator = (def as { discriminator?: string }).discriminator;
      if (discriminator) {
        const byValue = new Map<unknown, Strip>();
        for (const option of def.options) {
          const field = (option as z.core.$ZodTypes)._zod.def as { shape?: Record<string, z.core.$ZodType> };
          const literal = field.shape?.[discriminator]?._zod.def as { values?: unknown[] } | undefined;
          for (const value of literal?.values ?? []) byValue.set(value, compileStrip(option));
        }
        return (value) => (isObject(value) ? (byValue.get(value[discriminator]) ?? identity)(value) : value);
      }
      // Which branch an object belongs to is only known by checking it: the rare union of objects pays that.
      const branches = def.options.map((option) => ({ option, strip: compileStrip(option) }));
      if (branches.every((branch) => branch.strip === identity)) return identity;
      return (value) => {
        if (typeof value !== 'object' || value === null) return value;
        const branch = branches.find(({ option }) => z.safeEncode(option, value as never).success);
        return branch ? branch.strip(value) : value;
      };
    }
    default:
      return identity;
  }
}

/**
 * Fastify's serializer for the zod response schemas: declared keys only, then JSON.stringify. It replaces
 * fastify-type-provider-zod's serializer, which encodes (re-validates) every answer with zod first, at three to
 * four times the CPU. The schemas still feed /docs unchanged.
 */
export const serializerCompiler: FastifySerializerCompiler<z.core.$ZodType> = ({ schema }) => {
  const strip = compileStrip(schema);
  return (data) => JSON.stringify(strip(data));
};

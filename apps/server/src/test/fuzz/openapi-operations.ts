import { Ajv, type ValidateFunction } from 'ajv';

/** A JSON schema as @fastify/swagger prints it (OpenAPI 3.0 dialect: `nullable`, no `$ref` here). */
export type JsonSchema = { [keyword: string]: unknown };

/** One operation of the OpenAPI document, with what a fuzzer needs to build and judge requests. */
export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
  /** Needs a session (the operation lists a security requirement). */
  secured: boolean;
  /** The query parameters as one object schema; null when the operation takes none. */
  query: JsonSchema | null;
  /** The JSON request body's schema; null when the operation takes no body. */
  body: JsonSchema | null;
  /** Whether the input breaks a rule the schema states plainly (see `conservativeSchema`). */
  forbids(input: { query?: Record<string, unknown>; body?: unknown }): boolean;
}

interface OpenApiDocument {
  security?: unknown[];
  paths: Record<string, Record<string, OpenApiOperation>>;
}

interface OpenApiOperation {
  security?: unknown[];
  parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/** Keywords whose breach no zod refinement can excuse: type, presence, closed objects, bounds. */
const KEPT_KEYWORDS = new Set([
  'type',
  'nullable',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'allOf',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
]);

/**
 * The schema reduced to the rules a request can be judged by without false alarms: the zod schema behind
 * it may coerce, default or refine, but it never accepts a wrong type, a missing required field, a field
 * a closed object lacks, an over-long string or an out-of-range number. `oneOf` becomes `anyOf` (matching
 * two branches is no breach), and `enum`, `pattern`, `format` and `minLength` are dropped.
 */
export function conservativeSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(conservativeSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const kept: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'oneOf') kept.anyOf = conservativeSchema(value);
    else if (keyword === 'properties')
      kept.properties = Object.fromEntries(
        Object.entries(value as JsonSchema).map(([name, property]) => [name, conservativeSchema(property)]),
      );
    else if (KEPT_KEYWORDS.has(keyword)) kept[keyword] = conservativeSchema(value);
  }
  return kept;
}

/** The query parameters of an operation as one object schema, as Fastify validates a querystring. */
function querySchema(parameters: OpenApiOperation['parameters']): JsonSchema | null {
  // @fastify/swagger spreads a loose zod object's `type` and `additionalProperties` into parameters of
  // those names (`type` with the schema "object"); neither is a real parameter.
  const query = (parameters ?? []).filter(
    (p) => p.in === 'query' && typeof p.schema === 'object' && p.name !== 'additionalProperties',
  );
  if (query.length === 0) return null;
  return {
    type: 'object',
    properties: Object.fromEntries(query.map((p) => [p.name, p.schema])),
    required: query.filter((p) => p.required).map((p) => p.name),
  };
}

/** Every operation of the document, in document order. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  // Query values arrive as strings and repeated keys as arrays; coercion judges them as Fastify would.
  const queryAjv = new Ajv({ strict: false, coerceTypes: 'array', allErrors: false });
  const bodyAjv = new Ajv({ strict: false, allErrors: false });
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const query = querySchema(operation.parameters);
      const body = operation.requestBody?.content?.['application/json']?.schema ?? null;
      const validateQuery: ValidateFunction | null = query
        ? queryAjv.compile(conservativeSchema(query) as object)
        : null;
      const validateBody: ValidateFunction | null = body
        ? bodyAjv.compile(conservativeSchema(body) as object)
        : null;
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        secured: (operation.security ?? document.security ?? []).length > 0,
        query,
        body,
        forbids(input) {
          // Coercion rewrites its argument, so the query is judged on a copy.
          if (validateQuery && !validateQuery(structuredClone(input.query ?? {}))) return true;
          // No body at all is judged as JSON null: an object schema forbids it.
          if (validateBody && !validateBody(input.body ?? null)) return true;
          return false;
        },
      });
    }
  }
  return operations;
}

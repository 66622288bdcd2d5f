/**
 * Reads the allowed input values out of a Replicate model's OpenAPI schema
 * (`latest_version.openapi_schema.components.schemas.Input`). docs/system.md 9.6 asks that aspect ratios
 * and the other producer values be re-checked against the live provider schema before they change,
 * so this is the one place that knows how Cog writes enums: either inline (`enum: [...]`) or as
 * `allOf: [{ $ref: '#/components/schemas/aspect_ratio' }]` pointing at a sibling schema.
 */

export interface NumberRange {
  minimum: number;
  maximum: number;
}

export interface ModelInputConstraints {
  /** Allowed aspect_ratio values; empty when the schema declares none. */
  aspectRatio: string[];
  /** Allowed quality values; empty when the schema declares none. */
  quality: string[];
  /** Allowed output_format values; empty when the schema declares none. */
  outputFormat: string[];
  /** output_compression bounds; null when the schema does not declare the field or its bounds. */
  outputCompression: NumberRange | null;
  /** Every property name of the Input schema, so a caller can check e.g. input_images exists. */
  inputNames: string[];
}

export interface ModelInfo {
  owner: string;
  name: string;
  /** ID of the latest version, or null when the provider hides versions (official models). */
  latestVersionId: string | null;
  input: ModelInputConstraints;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resolveRef(ref: unknown, schemas: JsonObject): JsonObject | undefined {
  if (typeof ref !== 'string') return undefined;
  const prefix = '#/components/schemas/';
  if (!ref.startsWith(prefix)) return undefined;
  const target = schemas[ref.slice(prefix.length)];
  return isObject(target) ? target : undefined;
}

/** Follows one level of `$ref` / `allOf` / `anyOf` indirection, as Cog emits for enum inputs. */
function collectSchemaParts(property: JsonObject, schemas: JsonObject): JsonObject[] {
  const parts: JsonObject[] = [property];
  const direct = resolveRef(property['$ref'], schemas);
  if (direct) parts.push(direct);
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const list = property[key];
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      if (!isObject(entry)) continue;
      parts.push(entry);
      const target = resolveRef(entry['$ref'], schemas);
      if (target) parts.push(target);
    }
  }
  return parts;
}

function enumValues(property: unknown, schemas: JsonObject): string[] {
  if (!isObject(property)) return [];
  for (const part of collectSchemaParts(property, schemas)) {
    const values = part['enum'];
    if (Array.isArray(values)) return values.filter((v): v is string => typeof v === 'string');
  }
  return [];
}

function numberRange(property: unknown, schemas: JsonObject): NumberRange | null {
  if (!isObject(property)) return null;
  let minimum: number | undefined;
  let maximum: number | undefined;
  for (const part of collectSchemaParts(property, schemas)) {
    if (minimum === undefined && typeof part['minimum'] === 'number') minimum = part['minimum'];
    if (maximum === undefined && typeof part['maximum'] === 'number') maximum = part['maximum'];
  }
  return minimum === undefined || maximum === undefined ? null : { minimum, maximum };
}

/** Extracts the constraints of the inputs this service sends from an OpenAPI schema document. */
export function readInputConstraints(openapiSchema: unknown): ModelInputConstraints {
  const components = isObject(openapiSchema) ? openapiSchema['components'] : undefined;
  const schemas = isObject(components) && isObject(components['schemas']) ? components['schemas'] : {};
  const input = schemas['Input'];
  const properties = isObject(input) && isObject(input['properties']) ? input['properties'] : {};
  return {
    aspectRatio: enumValues(properties['aspect_ratio'], schemas),
    quality: enumValues(properties['quality'], schemas),
    outputFormat: enumValues(properties['output_format'], schemas),
    outputCompression: numberRange(properties['output_compression'], schemas),
    inputNames: Object.keys(properties),
  };
}

export interface ProducerInputValues {
  aspectRatio: string;
  quality: string;
  outputFormat: string;
  outputCompression: number;
}

/**
 * Lists every configured producer value the live model would reject, as human-readable problems
 * (empty = compatible). Used before a rollout changes AI_STAGING_* values (docs/system.md 9.6).
 */
export function findUnsupportedInputs(model: ModelInfo, values: ProducerInputValues): string[] {
  const problems: string[] = [];
  const { input } = model;
  const checkEnum = (field: string, allowed: string[], value: string) => {
    if (!allowed.includes(value)) {
      problems.push(`${field} "${value}" is not offered by the model (allowed: ${allowed.join(', ') || 'none declared'})`);
    }
  };
  checkEnum('aspect_ratio', input.aspectRatio, values.aspectRatio);
  checkEnum('quality', input.quality, values.quality);
  checkEnum('output_format', input.outputFormat, values.outputFormat);
  const range = input.outputCompression;
  if (!range) {
    problems.push('output_compression is not declared by the model');
  } else if (values.outputCompression < range.minimum || values.outputCompression > range.maximum) {
    problems.push(`output_compression ${values.outputCompression} is outside ${range.minimum}..${range.maximum}`);
  }
  if (!input.inputNames.includes('input_images')) {
    problems.push('input_images is not declared by the model');
  }
  return problems;
}

// Fields of parsed JSON whose shape nothing declares (log lines, error bodies, event data), read
// one at a time and typed by a check: a missing or mistyped field is undefined, never a value a
// cast pretends is there.

/** `value`'s own fields when it is an object; none otherwise. */
export function fieldsOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? { ...value } : {};
}

/** The fields of a JSON text; none when it is not JSON or not an object. */
export function parsedFields(text: string): Record<string, unknown> {
  try {
    return fieldsOf(JSON.parse(text));
  } catch {
    return {};
  }
}

export function stringField(value: unknown, key: string): string | undefined {
  const field = fieldsOf(value)[key];
  return typeof field === 'string' ? field : undefined;
}

export function numberField(value: unknown, key: string): number | undefined {
  const field = fieldsOf(value)[key];
  return typeof field === 'number' ? field : undefined;
}

/** Parses a number field: empty is null (cleared), anything unparsable is undefined (invalid). */
export function parseNumberField(value: string): number | null | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : undefined;
}

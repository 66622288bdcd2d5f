/**
 * True when `value` is one of `values`. The domain's closed vocabularies (room types, styles,
 * statuses, prompt versions) are `as const` string arrays; this is their type guard.
 */
export function isOneOf<T extends string>(values: readonly T[], value: unknown): value is T {
  return values.some((candidate) => candidate === value);
}

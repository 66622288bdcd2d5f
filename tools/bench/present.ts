/**
 * `value`, refused when absent. A bench reads back rows, answers and list entries it has just
 * made; a missing one is a broken run, and stopping with what was missing says so where a
 * TypeError further on would not.
 */
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`bench: ${what} is missing`);
  return value;
}

/**
 * A Prisma `select` of plain columns, from one list. The raw-SQL reads that mirror a select (the
 * single-statement public property read) take the same list with Object.keys, so both stay in step.
 */
export function selectColumns<const C extends string>(columns: readonly C[]): { readonly [K in C]: true } {
  return Object.fromEntries(columns.map((column) => [column, true])) as { readonly [K in C]: true };
}

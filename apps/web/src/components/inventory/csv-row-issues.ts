import type { FieldIssue } from '@staging/domain/errors';
import { describeError } from '@/lib/api-errors';
import type { CsvRow, CsvRowError } from '@/lib/inventory-csv';

/** Messages per row of a refused call, from issue paths `items.<index>.<column>`. */
export function rowIssues(rows: readonly CsvRow[], error: unknown, issueText: (issue: FieldIssue) => string): Map<CsvRow, string> {
  const found = new Map<CsvRow, string>();
  for (const issue of describeError(error).issues) {
    const [head, index, column] = issue.path;
    const row = head === 'items' && typeof index === 'number' ? rows[index] : undefined;
    if (row === undefined) continue;
    const message = `${column === undefined ? '' : `${String(column)}: `}${issueText(issue)}`;
    found.set(row, found.has(row) ? `${found.get(row)}; ${message}` : message);
  }
  return found;
}

/** Every row of `rows` refused with the same `message`. */
export function problemsOf(rows: readonly CsvRow[], message: string): CsvRowError[] {
  return rows.map((row) => ({ line: row.line, fields: row.fields, message }));
}

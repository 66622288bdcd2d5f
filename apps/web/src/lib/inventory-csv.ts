import Papa from 'papaparse';
import { ZBulkCreateItem } from '@staging/contracts/inventory';
import { INVENTORY_CSV_COLUMNS, toCsv, unescapeCell } from '@staging/domain/inventory-csv-cells';
import type { FieldIssue } from '@staging/domain/errors';
import { fieldIssuesOf } from '@staging/domain/field-issues';
import type { Locale } from '@staging/domain/locale';
import { INVENTORY_LIMITS, INVENTORY_STATUSES, inventoryStatusLabel, parseInventoryStatus, type InventoryStatus } from '@staging/domain/inventory';

/** One bulkCreate item as the CSV import sends it (the unit is chosen in the form). */
export interface CsvInventoryItem {
  unitNumber: string;
  floor?: number | null;
  status?: InventoryStatus;
  priceAdjustment?: number | null;
  notes?: string | null;
}

export interface CsvRow {
  /** Line of the record in the file (the header is line 1), as a spreadsheet numbers it. */
  line: number;
  /** The record's fields as read, for the bad-rows download should the server refuse it. */
  fields: string[];
  item: CsvInventoryItem;
}

export interface CsvRowError {
  line: number;
  /** The record's fields as read, so the bad rows can be downloaded, fixed and imported again. */
  fields: string[];
  message: string;
}

export interface ParsedInventoryCsv {
  /** The header as read (written back at the top of the bad-rows download). */
  header: string[];
  /** Named columns the import does not read (`unitName` of an export, a `comment`), in file order. */
  unusedColumns: string[];
  rows: CsvRow[];
  errors: CsvRowError[];
  /** Set when the file cannot be imported at all (no header, no unitNumber column). */
  fileError?: string;
}

type Column = (typeof INVENTORY_CSV_COLUMNS)[number];

/**
 * The catalogue's "csv" messages (a next-intl translator for that namespace), so every problem
 * reads in the UI language.
 */
export type CsvTranslate = (
  key: 'emptyFile' | 'noHeader' | 'unreadableLine' | 'notANumber' | 'badStatus' | 'exists' | 'duplicate',
  values?: Record<string, string | number>,
) => string;

export interface CsvReadOptions {
  t: CsvTranslate;
  /** The words for a field issue of the server's rules, in the UI language. */
  issueText: (issue: FieldIssue) => string;
  locale: Locale;
  /** Unit numbers the target unit already has; rows repeating one are refused. */
  existingUnitNumbers?: ReadonlySet<string>;
}

/** The columns of the template, in its order; the header names the import looks for first. */
export const CSV_COLUMNS: readonly Column[] = INVENTORY_CSV_COLUMNS;

const HEADER_ALIASES: Record<string, Column> = {
  unitnumber: 'unitNumber',
  unit: 'unitNumber',
  number: 'unitNumber',
  floor: 'floor',
  status: 'status',
  priceadjustment: 'priceAdjustment',
  price: 'priceAdjustment',
  notes: 'notes',
  note: 'notes',
};

/** The status labels as the import lists them, e.g. "Available, Reserved, Sold, Rented". */
export function statusChoices(locale: Locale): string {
  return INVENTORY_STATUSES.map((status) => inventoryStatusLabel(status, locale)).join(', ');
}

function normalizeHeader(value: string): string {
  return value.trim().toLowerCase().replace(/[\s_-]+/g, '');
}

function parseNumber(raw: string): number | null | 'invalid' {
  const value = raw.trim();
  if (value === '') return null;
  // Thousands separators are common in spreadsheets; anything else non-numeric is refused.
  const number = Number(value.replace(/,/g, ''));
  return Number.isFinite(number) ? number : 'invalid';
}

interface RawRecord {
  line: number;
  fields: string[];
  /** papaparse's code for what is wrong with this record (MissingQuotes, InvalidQuotes…), if anything. */
  syntaxError?: string;
}

/**
 * Records with the line each starts on. papaparse's cursor is the offset just past a record (its
 * line break included), so a record starts on 1 + the line breaks before the previous cursor;
 * this stays right when a quoted field spans lines. Blank lines are dropped.
 */
function readRecords(text: string): RawRecord[] {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const records: RawRecord[] = [];
  let cursor = 0;
  let line = 1;
  Papa.parse<string[]>(source, {
    step: (result) => {
      const fields = result.data;
      // A one-column file has no delimiter to detect; that is not a problem with the row.
      const problem = result.errors.find((error) => error.type !== 'Delimiter');
      if (fields.some((field) => field.trim() !== '')) {
        records.push({ line, fields: fields.map(unescapeCell), ...(problem === undefined ? {} : { syntaxError: problem.code }) });
      }
      for (let i = cursor; i < result.meta.cursor; i += 1) if (source[i] === '\n') line += 1;
      cursor = result.meta.cursor;
    },
  });
  return records;
}

/** The item of one record, or the problems found in it (column conversions first, then zod). */
function readItem(columns: (Column | undefined)[], fields: string[], { t, issueText, locale }: CsvReadOptions): { item: CsvInventoryItem } | { problems: string[] } {
  const problems: string[] = [];
  const item: Record<string, unknown> = {};
  columns.forEach((column, index) => {
    const raw = fields[index] ?? '';
    switch (column) {
      case 'unitNumber':
        item.unitNumber = raw;
        break;
      case 'notes':
        // Kept verbatim, like the notes field of the form; an empty cell is no notes.
        if (raw !== '') item.notes = raw;
        break;
      case 'floor':
      case 'priceAdjustment': {
        const value = parseNumber(raw);
        if (value === 'invalid') problems.push(t('notANumber', { column, value: raw.trim() }));
        else if (value !== null) item[column] = value;
        break;
      }
      case 'status': {
        if (raw.trim() === '') break;
        const status = parseInventoryStatus(raw);
        if (status === undefined) problems.push(t('badStatus', { value: raw.trim(), statuses: statusChoices(locale) }));
        else item.status = status;
        break;
      }
      case undefined:
        break;
    }
  });
  if (problems.length > 0) return { problems };
  // The server's own schema (packages/domain), so the preview refuses exactly what it would.
  const checked = ZBulkCreateItem.safeParse(item);
  if (!checked.success) return { problems: fieldIssuesOf(checked.error.issues).map((issue) => `${issue.path.join('.')}: ${issueText(issue)}`) };
  const { propertyUnitId: _unit, ...parsed } = checked.data;
  return { item: parsed };
}

/**
 * Reads an inventory CSV (a header naming unitNumber and optionally floor, status,
 * priceAdjustment, notes) for the preview; other named columns are listed as unused. Each row is
 * checked with the server's zod rules, against the other rows of the file and against the unit
 * numbers already in the target unit, so the rows offered for import are the ones the server will
 * accept.
 */
export function parseInventoryCsv(text: string, options: CsvReadOptions): ParsedInventoryCsv {
  const { t, existingUnitNumbers = new Set<string>() } = options;
  const [headerRecord, ...records] = readRecords(text);
  if (headerRecord === undefined) return { header: [], rows: [], errors: [], unusedColumns: [], fileError: t('emptyFile') };
  const header = headerRecord.fields;
  const columns = header.map((name) => HEADER_ALIASES[normalizeHeader(name)]);
  const unusedColumns = header.filter((name, index) => columns[index] === undefined && name.trim() !== '').map((name) => name.trim());
  if (!columns.includes('unitNumber')) {
    return { header, rows: [], errors: [], unusedColumns, fileError: t('noHeader') };
  }
  const rows: CsvRow[] = [];
  const errors: CsvRowError[] = [];
  const firstLineOf = new Map<string, number>();
  for (const record of records) {
    const fail = (message: string) => errors.push({ line: record.line, fields: record.fields, message });
    if (record.syntaxError !== undefined) {
      fail(t('unreadableLine', { problem: record.syntaxError }));
      continue;
    }
    const read = readItem(columns, record.fields, options);
    if ('problems' in read) {
      fail(read.problems.join('; '));
      continue;
    }
    const { unitNumber } = read.item;
    const earlier = firstLineOf.get(unitNumber);
    if (existingUnitNumbers.has(unitNumber)) fail(t('exists', { value: unitNumber }));
    else if (earlier !== undefined) fail(t('duplicate', { value: unitNumber, line: String(earlier) }));
    else {
      firstLineOf.set(unitNumber, record.line);
      rows.push({ line: record.line, fields: record.fields, item: read.item });
    }
  }
  return { header, rows, errors, unusedColumns };
}

/** Splits `items` into chunks of at most `size` (bulkCreate takes 1..500 items). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

export const BULK_CREATE_CHUNK = INVENTORY_LIMITS.bulkCreateMaxItems;

/** A template to fill in: the header and two example rows showing every column. */
export function inventoryCsvTemplate(locale: Locale): string {
  return toCsv([
    CSV_COLUMNS,
    ['A-101', 1, inventoryStatusLabel('AVAILABLE', locale), 0, ''],
    ['A-102', 1, inventoryStatusLabel('RESERVED', locale), 1500, ''],
  ]);
}

/** The rows that were not imported, as read, with the reason in a last column. */
export function errorRowsCsv(header: readonly string[], errors: readonly CsvRowError[]): string {
  return toCsv([[...header, 'error', 'line'], ...errors.map((error) => [...header.map((_, i) => error.fields[i] ?? ''), error.message, error.line])]);
}

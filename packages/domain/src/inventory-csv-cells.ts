import Papa from 'papaparse';
import { inventoryStatusLabel } from './inventory';
import type { InventoryStatus } from './inventory';
import type { Locale } from './locale';

/**
 * What a spreadsheet could run, or split into a row of its own: a cell starting with a formula
 * character (=, +, -, @, their fullwidth forms, tab, CR, LF or NUL), also after spaces or single
 * quotes, and any cell holding a line break (an importer that ignores quoting would start a new
 * row with what follows it). PapaParse's own escapeFormulae skips every value holding a line
 * break, so the check is ours.
 */
const RUNNABLE = /^['\s]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\t\r\n\0]|[\r\n]/;

/** A cell as written to a download: a runnable value gets a leading single quote. */
export function escapeCell(value: string): string {
  return RUNNABLE.test(value) ? `'${value}` : value;
}

/**
 * A cell as read by the import: the quote {@link escapeCell} added comes off again, so an export
 * imported again is what was exported. A quote in front of anything else is the agent's own text.
 */
export function unescapeCell(value: string): string {
  return value.startsWith("'") && RUNNABLE.test(value.slice(1)) ? value.slice(1) : value;
}

export type CsvCell = string | number | null;

/** Rows as CSV lines joined by CRLF, no line break at the end. Numbers are written as numbers: a negative price is data, not a formula. */
export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return Papa.unparse(
    rows.map((row) => row.map((cell) => (typeof cell === 'string' ? escapeCell(cell) : (cell ?? '')))),
    { newline: '\r\n' },
  );
}

/** The columns the inventory import reads, in the order the template and the export write them. */
export const INVENTORY_CSV_COLUMNS = ['unitNumber', 'floor', 'status', 'priceAdjustment', 'notes'] as const;

/** The export's header: the unit's name first, then the import's columns. */
export const INVENTORY_EXPORT_HEADER: readonly CsvCell[] = ['unitName', ...INVENTORY_CSV_COLUMNS];

/** The fields of an inventory item the export writes; every inventory item record has them. */
export interface InventoryExportItem {
  unitNumber: string;
  floor: number | null;
  status: InventoryStatus;
  priceAdjustment: number | null;
  notes: string | null;
}

/**
 * One exported item. Statuses are written as labels in the UI language ("Available",
 * "Disponible"), which the import reads back in any language, like every other human-facing column.
 */
export function inventoryExportRow(unitName: string, item: InventoryExportItem, locale: Locale): CsvCell[] {
  return [unitName, item.unitNumber, item.floor, inventoryStatusLabel(item.status, locale), item.priceAdjustment, item.notes];
}

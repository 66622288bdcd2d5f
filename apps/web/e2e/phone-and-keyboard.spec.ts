import type { Locator, Page } from '@playwright/test';
import { seedAgentWithListing, seedOriginalPhoto, seedStagedVariant, seedUnitWithItems } from '@staging/stack/e2e-fixtures';
import { expect, saveScreenshot, signInQuickly, stack, test } from './support/fixtures';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

async function headerShare(page: Page): Promise<number> {
  const box = await page.locator('header.site-header').boundingBox();
  expect(box, 'the page has a header').not.toBeNull();
  return box!.height / page.viewportSize()!.height;
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Visible and entirely inside the viewport's width: reachable without scrolling sideways. */
async function expectWithinWidth(page: Page, control: Locator): Promise<void> {
  await control.scrollIntoViewIfNeeded();
  await expect(control).toBeVisible();
  const box = (await control.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

test('phone: the header is one compact bar and its Menu button opens the navigation', async ({ browser, data }) => {
  const listing = await seedAgentWithListing(data);
  const context = await browser.newContext({ baseURL: stack.webUrl, ...PHONE });
  const page = await context.newPage();

  await page.goto(`/listings/${listing.propertyId}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await headerShare(page), 'public header share of the screen').toBeLessThan(0.15);

  await signInQuickly(page, listing.agent);
  await page.goto('/properties');
  await expect(page.getByTestId('property-card')).toHaveCount(1);
  expect(await headerShare(page), 'agent header share of the screen').toBeLessThan(0.15);
  const menu = page.getByRole('button', { name: /^Menu/ });
  const review = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Review/ });
  await expect(review).toBeHidden();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');

  await menu.tap();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(review).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await saveScreenshot(page, 'phone-menu-open', { fullPage: false });

  // Following a link folds the menu again on the next page.
  await review.tap();
  await expect(page).toHaveURL(/\/review$/);
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  expect(await headerShare(page)).toBeLessThan(0.15);
  await context.close();
});

test('phone: inventory rows are cards with every action reachable and no sideways scrolling', async ({ browser, data }) => {
  const listing = await seedAgentWithListing(data);
  await seedUnitWithItems(data, { propertyId: listing.propertyId, name: 'Harbour', count: 3, prefix: 'H' });
  const context = await browser.newContext({ baseURL: stack.webUrl, ...PHONE });
  const page = await context.newPage();
  await signInQuickly(page, listing.agent);
  await page.goto(`/properties/${listing.propertyId}/inventory`);
  const rows = page.getByTestId('inventory-row');
  await expect(rows).toHaveCount(3);
  expect(await horizontalOverflow(page), 'inventory scrolls sideways').toBeLessThanOrEqual(0);
  await saveScreenshot(page, 'phone-inventory-cards');

  const card = rows.first();
  const unitNumber = (await card.getAttribute('data-unit-number'))!;
  for (const control of [
    card.getByRole('checkbox', { name: `Select ${unitNumber}` }),
    card.getByRole('button', { name: `Edit ${unitNumber}` }),
    card.getByRole('button', { name: `Delete ${unitNumber}` }),
  ]) {
    await expectWithinWidth(page, control);
  }
  // Its column labels travel with the values.
  await expect(card.locator('td[data-label="Status"]')).toBeVisible();

  // Edit inline on the card: every field fits, Save keeps focus on the row's Edit button.
  await card.getByRole('button', { name: `Edit ${unitNumber}` }).tap();
  const notes = card.getByRole('textbox', { name: `Notes of ${unitNumber}` });
  await expectWithinWidth(page, notes);
  await expectWithinWidth(page, card.getByRole('button', { name: `Save ${unitNumber}` }));
  expect(await horizontalOverflow(page), 'the card being edited scrolls sideways').toBeLessThanOrEqual(0);
  await saveScreenshot(page, 'phone-inventory-card-edit', { fullPage: false });
  await notes.fill('Sea view');
  await card.getByRole('button', { name: `Save ${unitNumber}` }).tap();
  await expect(card).toContainText('Sea view');
  await expect(card.getByRole('button', { name: `Edit ${unitNumber}` })).toBeFocused();

  // Select it and reach the bulk actions; Delete opens its confirmation.
  await card.getByRole('checkbox', { name: `Select ${unitNumber}` }).tap();
  const bulk = page.getByTestId('bulk-bar');
  await expect(bulk).toContainText('1 selected');
  await expectWithinWidth(page, bulk.getByRole('button', { name: 'Apply to selected' }));
  await card.getByRole('button', { name: `Delete ${unitNumber}` }).tap();
  const dialog = page.getByRole('dialog', { name: `Delete ${unitNumber}?` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).tap();
  await expect(rows).toHaveCount(3);
  await context.close();
});

test('keyboard: the skip link reaches the stage panel in three Tabs; focus lands on each submit result', async ({ page, data }) => {
  const listing = await seedAgentWithListing(data);
  const original = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'BEDROOM', isMain: true });
  await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'KITCHEN', displayOrder: 1 });
  // The style already staged: the submit answers "already staged" without starting a job.
  await seedStagedVariant(data, { original, canonicalStyle: 'COASTAL' });
  await seedUnitWithItems(data, { propertyId: listing.propertyId, name: 'Block C', count: 1, prefix: 'C' });
  await signInQuickly(page, listing.agent);

  await page.goto(`/properties/${listing.propertyId}`);
  await expect(page.getByTestId('original-card')).toHaveCount(2);
  // On a desktop screen the navigation is laid out in the header, with no Menu button.
  await expect(page.getByRole('button', { name: /^Menu/ })).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Spend' })).toBeVisible();
  const firstPhoto = page.getByRole('checkbox', { name: 'Photo 1', exact: true });
  let tabs = 0;
  await page.keyboard.press('Tab');
  tabs += 1;
  await expect(page.getByRole('link', { name: 'Skip to stage panel' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#stage-panel')).toBeFocused();
  while (tabs < 3 && !(await firstPhoto.evaluate((element) => element === document.activeElement))) {
    await page.keyboard.press('Tab');
    tabs += 1;
  }
  await expect(firstPhoto).toBeFocused();
  expect(tabs).toBeLessThanOrEqual(3);

  // Submit by keyboard: the results heading takes focus.
  await page.keyboard.press('Space');
  await page.getByRole('radio', { name: /^Coastal/ }).check();
  await page.getByRole('button', { name: 'Stage selected photos' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('stage-results').locator('[data-disposition="style_exists"]')).toBeVisible();
  await expect(page.getByTestId('stage-results-title')).toBeFocused();

  // Elsewhere the skip link goes to the main content.
  await page.goto(`/properties/${listing.propertyId}/inventory`);
  await expect(page.getByTestId('inventory-row')).toHaveCount(1);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main')).toBeFocused();

  // Inventory create: the confirmation takes focus.
  const create = page.getByRole('form', { name: 'Add an item to Block C' });
  await create.getByLabel('Unit number').fill('C-42');
  await create.getByLabel('Unit number').press('Enter');
  await expect(page.getByTestId('inventory-row')).toHaveCount(2);
  await expect(create.getByTestId('item-added')).toHaveText('Added C-42 to Block C.');
  await expect(create.getByTestId('item-added')).toBeFocused();

  // Bulk update: the outcome takes focus.
  await page.getByRole('checkbox', { name: 'Select C-42' }).check();
  await page.getByRole('button', { name: 'Apply to selected' }).focus();
  await page.keyboard.press('Enter');
  const outcome = page.getByTestId('bulk-bar').getByRole('status');
  await expect(outcome).toHaveText('Updated 1 item.');
  await expect(outcome).toBeFocused();
});

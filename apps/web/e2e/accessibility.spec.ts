import {
  seedAgentWithListing,
  seedOriginalPhoto,
  seedStagedVariant,
  seedUnitWithItems,
  type E2eData,
} from '../../../tools/stack/src/e2e-fixtures';
import { expectNoSeriousViolations } from './support/axe';
import { expect, saveScreenshot, signInQuickly, stack, test } from './support/fixtures';

/** A listing with a cover, a second photo, one pending and one approved variant, and inventory. */
async function seedShowcase(data: E2eData) {
  const listing = await seedAgentWithListing(data, { title: `Showcase ${Date.now().toString(36)}` });
  const living = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'LIVING_ROOM', isMain: true, displayOrder: 0 });
  const bedroom = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'TV_ROOM', displayOrder: 1, wall: '#c9d6df' });
  await seedStagedVariant(data, { original: living, canonicalStyle: 'COASTAL', reviewStatus: 'APPROVED', reviewedByUserId: listing.agent.id });
  await seedStagedVariant(data, { original: bedroom, canonicalStyle: 'FARMHOUSE' });
  await seedUnitWithItems(data, { propertyId: listing.propertyId, name: 'Building A', count: 6 });
  return listing;
}

test('axe finds no serious or critical violations on the main pages', async ({ page, browser, data }) => {
  // Seven full axe runs in one test: the default guard is sized for one page, and a busy 2-core
  // machine (the suite's worker tests beside it) takes minutes. A hang guard, not a speed check.
  test.setTimeout(300_000);
  const listing = await seedShowcase(data);

  const anonymous = await browser.newContext({ baseURL: stack.webUrl });
  const visitor = await anonymous.newPage();
  await visitor.goto('/sign-in');
  await expectNoSeriousViolations(visitor, 'sign-in');
  await visitor.goto(`/listings/${listing.propertyId}`);
  await expect(visitor.getByTestId('staged-photo')).toHaveCount(1);
  await expectNoSeriousViolations(visitor, 'public listing');
  await visitor.goto('/search?q=showcase');
  await expectNoSeriousViolations(visitor, 'search');
  await anonymous.close();

  await signInQuickly(page, listing.agent);
  await page.goto('/properties');
  await expect(page.getByTestId('property-card')).toHaveCount(1);
  await expectNoSeriousViolations(page, 'properties');
  await saveScreenshot(page, 'properties');
  await page.goto(`/properties/${listing.propertyId}`);
  await expect(page.getByTestId('original-card')).toHaveCount(2);
  await expectNoSeriousViolations(page, 'property');
  await page.goto(`/properties/${listing.propertyId}/inventory`);
  await expect(page.getByTestId('inventory-row')).toHaveCount(6);
  await expectNoSeriousViolations(page, 'inventory');
  await page.goto('/review');
  await expect(page.getByTestId('review-item')).toHaveCount(1);
  await expectNoSeriousViolations(page, 'review');
  await saveScreenshot(page, 'review');
});

test('phone-sized screen: no sideways scrolling, navigation and actions reachable', async ({ browser, data }) => {
  const listing = await seedShowcase(data);
  const context = await browser.newContext({ baseURL: stack.webUrl, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await signInQuickly(page, listing.agent);
  const paths = [
    ['properties', '/properties'],
    ['property', `/properties/${listing.propertyId}`],
    ['inventory', `/properties/${listing.propertyId}/inventory`],
    ['review', '/review'],
    ['public-listing', `/listings/${listing.propertyId}`],
  ] as const;
  for (const [name, path] of paths) {
    await page.goto(path);
    await expect(page.locator('h1')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(1);
    await saveScreenshot(page, `phone-${name}`);
  }
  await page.goto('/review');
  await page.getByRole('button', { name: /^Approve/ }).tap();
  await expect(page.getByRole('status').filter({ hasText: /^Approved/ })).toBeVisible();
  await context.close();
});

test('keyboard only: sign in, open a property and approve a variant', async ({ browser, data }) => {
  const listing = await seedShowcase(data);
  const context = await browser.newContext({ baseURL: stack.webUrl });
  const page = await context.newPage();
  await page.goto('/review');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Freview/);

  // The first Tab reaches the skip link, then the form fields in order.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.keyboard.type(listing.agent.email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(listing.agent.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/review$/);

  const item = page.getByTestId('review-item');
  await expect(item).toHaveCount(1);
  const approve = item.getByRole('button', { name: /^Approve/ });
  // Tab from the slider to the next controls until Approve has focus.
  await item.getByRole('slider').focus();
  await page.keyboard.press('End');
  await expect(item.getByRole('slider')).toHaveAttribute('aria-valuenow', '100');
  for (let i = 0; i < 5 && !(await approve.evaluate((el) => el === document.activeElement)); i += 1) await page.keyboard.press('Tab');
  await expect(approve).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: /^Approved/ })).toBeVisible();
  await context.close();
});

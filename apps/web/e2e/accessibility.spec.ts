import type { Page } from '@playwright/test';
import {
  seedAgentWithListing,
  seedOriginalPhoto,
  seedStagedVariant,
  seedUnitWithItems,
  type E2eData,
} from '../../../tools/stack/src/e2e-fixtures';
import { seriousViolations } from './support/axe';
import { expect, saveScreenshot, signInQuickly, stack, test } from './support/fixtures';
import { seedFinishedJob } from './support/seed-jobs';

/** A listing with a cover, a second photo, one pending and one approved variant, a failed job and inventory. */
async function seedShowcase(data: E2eData) {
  const listing = await seedAgentWithListing(data, { title: `Showcase ${Date.now().toString(36)}` });
  const living = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'LIVING_ROOM', isMain: true, displayOrder: 0 });
  const bedroom = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'TV_ROOM', displayOrder: 1, wall: '#c9d6df' });
  await seedStagedVariant(data, { original: living, canonicalStyle: 'COASTAL', reviewStatus: 'APPROVED', reviewedByUserId: listing.agent.id });
  await seedStagedVariant(data, { original: bedroom, canonicalStyle: 'FARMHOUSE' });
  await seedUnitWithItems(data, { propertyId: listing.propertyId, name: 'Building A', count: 6 });
  await seedFinishedJob(data, { propertyId: listing.propertyId, originalImageId: living.id, status: 'FAILED', errorCode: 'ATTEMPTS_EXHAUSTED', attempts: 2, costMicrousd: 42_000 });
  return listing;
}

const VIEWPORTS = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
} as const;

interface PageCheck {
  /** Screenshot name: `desktop-<name>.png` and `phone-<name>.png`. */
  name: string;
  path: string;
  /** Waits until the page shows its data, so axe checks the page a visitor reads. */
  ready: (page: Page) => Promise<void>;
}

const heading = (page: Page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible();

function publicPages(propertyId: string): PageCheck[] {
  return [
    { name: 'sign-in', path: '/sign-in', ready: heading },
    { name: 'public-listing', path: `/listings/${propertyId}`, ready: (page) => expect(page.getByTestId('staged-photo')).toHaveCount(1) },
    { name: 'public-search', path: '/search?q=showcase', ready: heading },
    { name: 'not-found', path: '/no-such-page', ready: heading },
  ];
}

function agentPages(propertyId: string): PageCheck[] {
  return [
    { name: 'properties', path: '/properties', ready: (page) => expect(page.getByTestId('property-card')).toHaveCount(1) },
    {
      name: 'property',
      path: `/properties/${propertyId}`,
      ready: async (page) => {
        await expect(page.getByTestId('original-card')).toHaveCount(2);
        await expect(page.getByTestId('job')).toHaveCount(1);
      },
    },
    { name: 'review', path: '/review', ready: (page) => expect(page.getByTestId('review-item')).toHaveCount(1) },
    { name: 'inventory', path: `/properties/${propertyId}/inventory`, ready: (page) => expect(page.getByTestId('inventory-row')).toHaveCount(6) },
    { name: 'history', path: '/jobs', ready: (page) => expect(page.getByTestId('job')).toHaveCount(1) },
    { name: 'spend', path: '/spend', ready: (page) => expect(page.getByTestId('spend-row')).toHaveCount(1) },
  ];
}

for (const [size, options] of Object.entries(VIEWPORTS)) {
  test(`axe finds no serious or critical violations on any page (${size}); screenshots of each`, async ({ browser, data }) => {
    // Ten full axe runs and screenshots in one test on a busy 2-core machine: a hang guard, not a
    // speed check.
    test.setTimeout(600_000);
    const listing = await seedShowcase(data);
    const context = await browser.newContext({ baseURL: stack.webUrl, ...options });
    const page = await context.newPage();
    const found: string[] = [];
    const check = async (target: PageCheck) => {
      await page.goto(target.path);
      await target.ready(page);
      found.push(...(await seriousViolations(page)).map((line) => `${target.name}: ${line}`));
      if (size === 'phone') {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${target.name} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
      }
      await saveScreenshot(page, `${size}-${target.name}`);
    };

    for (const target of publicPages(listing.propertyId)) await check(target);
    await signInQuickly(page, listing.agent);
    for (const target of agentPages(listing.propertyId)) await check(target);
    expect(found, `axe (${size})`).toEqual([]);

    // The primary action of the review queue works by touch too.
    if (size === 'phone') {
      await page.goto('/review');
      await page.getByRole('button', { name: /^Approve/ }).tap();
      await expect(page.getByRole('status').filter({ hasText: /^Approved/ })).toBeVisible();
    }
    await context.close();
  });
}

test('keyboard only: sign in, open a property and approve a variant', async ({ browser, data }) => {
  const listing = await seedShowcase(data);
  const context = await browser.newContext({ baseURL: stack.webUrl });
  const page = await context.newPage();
  await page.goto('/review');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Freview/);

  // The first Tab reaches the skip link, then the form fields in order.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
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

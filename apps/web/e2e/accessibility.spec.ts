import { letApprovalLapse } from './support/approval-hold';
import { seriousViolations } from './support/axe';
import { DEVICES, expect, saveScreenshot, signInQuickly, stack, test } from './support/fixtures';
import { agentPages, publicPages, seedTourListing } from './support/page-tour';
import type { PageCheck } from './support/page-tour';

for (const [size, options] of Object.entries(DEVICES)) {
  test(`axe finds no serious or critical violations on any page (${size}); screenshots of each`, async ({ browser, data }) => {
    // Ten full axe runs and screenshots in one test on a busy 2-core machine: a hang guard, not a
    // speed check.
    test.setTimeout(600_000);
    const listing = await seedTourListing(data, { title: `Showcase ${Date.now().toString(36)}`, secondRoom: 'TV_ROOM', unitName: 'Building A', items: 6 });
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

    for (const target of publicPages(listing.propertyId, 'showcase')) await check(target);
    await signInQuickly(page, listing.agent);
    for (const target of agentPages(listing.propertyId, 6)) await check(target);
    expect(found, `axe (${size})`).toEqual([]);

    // The primary action of the review queue works by touch too.
    if (size === 'phone') {
      await page.clock.install();
      await page.goto('/review');
      await page.getByRole('button', { name: /^Approve/ }).tap();
      await letApprovalLapse(page);
      await expect(page.getByRole('status').filter({ hasText: /^Approved/ })).toBeVisible();
    }
    await context.close();
  });
}

test('keyboard only: sign in, open a property and approve a variant', async ({ browser, data }) => {
  const listing = await seedTourListing(data, { title: `Showcase ${Date.now().toString(36)}`, secondRoom: 'TV_ROOM', unitName: 'Building A', items: 6 });
  const context = await browser.newContext({ baseURL: stack.webUrl });
  const page = await context.newPage();
  await page.clock.install();
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
  // From the slider back (Shift+Tab) over the comparison's controls until Approve, which comes
  // before the comparison, has focus.
  await item.getByRole('slider').focus();
  await page.keyboard.press('End');
  await expect(item.getByRole('slider')).toHaveAttribute('aria-valuenow', '100');
  for (let i = 0; i < 8 && !(await approve.evaluate((el) => el === document.activeElement)); i += 1) await page.keyboard.press('Shift+Tab');
  await expect(approve).toBeFocused();
  await page.keyboard.press('Enter');
  await letApprovalLapse(page);
  await expect(page.getByRole('status').filter({ hasText: /^Approved/ })).toBeVisible();
  await context.close();
});

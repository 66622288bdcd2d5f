import type { Browser, Page } from '@playwright/test';
import { findImage, seedAgentWithListing, seedOriginalPhoto, seedStagedVariant, type E2eData } from '@staging/stack/e2e-fixtures';
import { DEVICES, expect, saveScreenshot, signInQuickly, stack, test } from './support/fixtures';
import type { Device } from './support/fixtures';
import { freezeClock, HOLD_WORDS } from './support/approval-hold';

// Approve holds for 5 s with an Undo before anything public changes (docs/decisions/web.md
// "Approve with undo"). Time is the page's fake clock: the tests move it, they never wait for it.

type Language = 'en' | 'es';

const WORDS = {
  en: { ...HOLD_WORDS.en, approve: /^Approve\b/, approved: /^Approved /, withdrawn: /^Approval withdrawn: /, properties: 'Properties' },
  es: { ...HOLD_WORDS.es, approve: /^Aprobar\b/, approved: /^Se aprobó /, withdrawn: /^Aprobación retirada: /, properties: 'Inmuebles' },
} as const;

async function seedQueue(data: E2eData, count: number) {
  const listing = await seedAgentWithListing(data);
  const variants = [];
  for (const [index, wall] of ['#d9cbb8', '#c9d6df', '#e0d4e8'].slice(0, count).entries()) {
    const original = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'BEDROOM', displayOrder: index, wall, isMain: index === 0 });
    variants.push(await seedStagedVariant(data, { original, canonicalStyle: 'SCANDINAVIAN' }));
  }
  return listing;
}

/** A signed-in page on `device` in `language`, its clock faked from the start, on the review queue. */
async function openReview(browser: Browser, device: Device, language: Language, agent: { email: string; password: string }) {
  const context = await browser.newContext({ ...DEVICES[device], baseURL: stack.webUrl, locale: language === 'en' ? 'en-US' : 'es-ES' });
  const page = await context.newPage();
  await signInQuickly(page, agent);
  await page.clock.install();
  // Every approve request the page sends, to show that none leaves before the hold lapses.
  const approveRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('ai.approveStagedVariant')) approveRequests.push(request.url());
  });
  await page.goto('/review');
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  return { context, page, approveRequests };
}

/** Approve the current card as the device would: the A key on a desktop, a tap on a phone. */
async function approveCurrent(page: Page, device: Device, language: Language): Promise<void> {
  const current = page.locator('[data-testid="review-item"][data-current="true"]');
  if (device === 'desktop') await page.keyboard.press('a');
  else await current.getByRole('button', { name: WORDS[language].approve }).tap();
}

for (const device of Object.keys(DEVICES) as Device[]) {
  for (const language of ['en', 'es'] as const) {
    const words = WORDS[language];

    test(`${device}, ${language}: Approve holds 5 s with Undo, nothing public changes until it lapses; J/K move the focus`, async ({ browser, data }) => {
      const listing = await seedQueue(data, 3);
      const { context, page, approveRequests } = await openReview(browser, device, language, listing.agent);
      const items = page.getByTestId('review-item');
      await expect(items).toHaveCount(3);
      await expect(items.first()).toHaveAttribute('data-current', 'true');
      const first = (await items.first().getAttribute('data-image-id'))!;
      // The current card's Approve and Reject are on screen with the card, before its comparison,
      // however tall the card; the keyboard shortcuts show only where there is a keyboard.
      await expect(items.first().getByTestId('review-actions').getByRole('button')).toHaveCount(2);
      for (const button of await items.first().getByTestId('review-actions').getByRole('button').all()) await expect(button).toBeInViewport();
      await expect(page.locator('.kbd-help')).toBeVisible({ visible: device === 'desktop' });

      if (device === 'desktop') {
        // J/K move the keyboard focus with the highlight, so Tab goes on from the card shown.
        await page.keyboard.press('j');
        await expect(items.nth(1)).toHaveAttribute('data-current', 'true');
        await expect(items.nth(1)).toBeFocused();
        await page.keyboard.press('k');
        await expect(items.first()).toHaveAttribute('data-current', 'true');
        await expect(items.first()).toBeFocused();
      }

      await freezeClock(page);
      await approveCurrent(page, device, language);
      // Held: the card leaves the queue, a live region says what happens when, Undo has focus.
      const hold = page.getByTestId('approval-hold');
      await expect(hold).toHaveCount(1);
      await expect(page.getByRole('status').filter({ hasText: words.approvingIn })).toBeVisible();
      const undo = hold.getByRole('button', { name: words.undo });
      await expect(undo).toBeFocused();
      await expect(undo).toBeInViewport();
      await expect(items).toHaveCount(2);
      expect((await findImage(data, first))?.reviewStatus).toBe('PENDING_REVIEW');
      expect(approveRequests).toEqual([]);
      await saveScreenshot(page, `review-undo-${device}-${language}-held`, { fullPage: false });

      // Undo: the card is back, current and focused, and nothing is sent however long one waits.
      if (device === 'desktop') await page.keyboard.press('Enter');
      else await undo.tap();
      await expect(hold).toHaveCount(0);
      await expect(items).toHaveCount(3);
      await expect(items.first()).toHaveAttribute('data-image-id', first);
      await expect(items.first()).toHaveAttribute('data-current', 'true');
      await expect(items.first()).toBeFocused();
      await expect(page.getByRole('status').filter({ hasText: words.withdrawn })).toBeVisible();
      await page.clock.runFor(10_000);
      expect(approveRequests).toEqual([]);
      expect((await findImage(data, first))?.reviewStatus).toBe('PENDING_REVIEW');
      await saveScreenshot(page, `review-undo-${device}-${language}-undone`, { fullPage: false });

      // Approved again and left alone: once the 5 s lapse it is published.
      await approveCurrent(page, device, language);
      await expect(hold).toHaveCount(1);
      await page.clock.runFor(4_900);
      expect(approveRequests).toEqual([]);
      await page.clock.runFor(100);
      await page.clock.resume();
      await expect(hold).toHaveCount(0);
      await expect(page.getByRole('status').filter({ hasText: words.approved })).toBeVisible();
      await expect.poll(async () => (await findImage(data, first))?.reviewStatus).toBe('APPROVED');
      expect(approveRequests).toHaveLength(1);
      await expect(items).toHaveCount(2);
      await expect(page.getByTestId('published-item')).toHaveCount(1);
      await saveScreenshot(page, `review-undo-${device}-${language}-approved`, { fullPage: false });
      await context.close();
    });
  }
}

for (const [device, language] of [['desktop', 'en'], ['phone', 'es']] as const) {
  test(`${device}, ${language}: leaving the page before the hold lapses publishes the approval (a link in the app, a reload)`, async ({ browser, data }) => {
    const listing = await seedQueue(data, 2);
    const { context, page } = await openReview(browser, device, language, listing.agent);
    const items = page.getByTestId('review-item');
    await expect(items).toHaveCount(2);
    const first = (await items.first().getAttribute('data-image-id'))!;
    const second = (await items.nth(1).getAttribute('data-image-id'))!;

    // A link to another page of the app.
    await freezeClock(page);
    await approveCurrent(page, device, language);
    await expect(page.getByTestId('approval-hold')).toHaveCount(1);
    expect((await findImage(data, first))?.reviewStatus).toBe('PENDING_REVIEW');
    if (device === 'phone') await page.locator('.nav-toggle').tap();
    await page.getByRole('navigation').getByRole('link', { name: WORDS[language].properties, exact: true }).click();
    await expect(page).toHaveURL(/\/properties$/);
    await expect.poll(async () => (await findImage(data, first))?.reviewStatus).toBe('APPROVED');

    // A reload (the same as closing the tab): the request goes out as the page unloads.
    await page.clock.resume();
    await page.goto('/review');
    await expect(items).toHaveCount(1);
    await freezeClock(page);
    await approveCurrent(page, device, language);
    await expect(page.getByTestId('approval-hold')).toHaveCount(1);
    expect((await findImage(data, second))?.reviewStatus).toBe('PENDING_REVIEW');
    await page.reload();
    await expect.poll(async () => (await findImage(data, second))?.reviewStatus).toBe('APPROVED');
    await context.close();
  });
}

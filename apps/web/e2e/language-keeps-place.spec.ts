import type { Locator, Page } from '@playwright/test';
import { seedAgentWithListing, seedOriginalPhoto } from '@staging/stack/e2e-fixtures';
import { expect, saveScreenshot, signInQuickly, stack, test } from './support/fixtures';

// Far down a long page the language switcher is still within reach, and switching keeps the
// reader where they were (docs/decisions/web.md "Which language a page is in").

const DEVICES = {
  desktop: { options: { viewport: { width: 1280, height: 800 } }, scrolled: 1122 },
  phone: { options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }, scrolled: 1500 },
} as const;
type Device = keyof typeof DEVICES;
type Language = 'en' | 'es';

const OTHER: Record<Language, Language> = { en: 'es', es: 'en' };
const AUTONYM: Record<Language, string> = { en: 'English', es: 'Español' };

/** Whether `locator` is wholly inside the window, where a finger or pointer reaches it without scrolling. */
async function expectOnScreen(page: Page, locator: Locator, what: string): Promise<void> {
  const box = await locator.boundingBox();
  const height = page.viewportSize()!.height;
  expect(box, `${what} is rendered`).not.toBeNull();
  expect(box!.y, `${what} is not above the window`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${what} is not below the window`).toBeLessThanOrEqual(height);
}

/**
 * What the reader is looking at: of the photo cards (`testId`), the one whose top is nearest the
 * middle of the window (by its place in the page, which a reload keeps), and that top.
 */
interface Middle {
  testId: string;
  index: number;
  top: number;
}

async function middleOf(page: Page, testId: string): Promise<Middle> {
  return page.evaluate((testId) => {
    const tops = [...document.querySelectorAll(`[data-testid="${testId}"]`)].map((card) => card.getBoundingClientRect().top);
    const distance = (top: number) => Math.abs(top - window.innerHeight / 2);
    const index = tops.reduce((best, top, at) => (distance(top) < distance(tops[best]!) ? at : best), 0);
    return { testId, index, top: tops[index]! };
  }, testId);
}

function topOf(page: Page, { testId, index }: Middle): Promise<number | null> {
  return page.evaluate(({ testId, index }) => document.querySelectorAll(`[data-testid="${testId}"]`)[index]?.getBoundingClientRect().top ?? null, { testId, index });
}

/**
 * Scrolls to `device`'s offset (or as far as the page goes, at least `atLeast`), switches language
 * with the header's control as a person would (a tap or click where it is; on a phone the Menu
 * first), and checks the page stayed put.
 */
async function switchFarDown(page: Page, device: Device, from: Language, cards: string, shot: string, atLeast: number): Promise<void> {
  const to = OTHER[from];
  await expect(page.locator('html')).toHaveAttribute('lang', from);
  const maxScroll = () => page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  await expect.poll(maxScroll, 'the page is long enough').toBeGreaterThanOrEqual(atLeast);
  const scrolled = Math.min(DEVICES[device].scrolled, await maxScroll());
  await page.evaluate((y) => window.scrollTo(0, y), scrolled);
  // At least there: photos above that finish loading grow the page, and the browser's scroll
  // anchoring then moves the offset further down to keep what is in view in place.
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThanOrEqual(scrolled);

  const switcher = page.getByTestId('locale-switcher');
  if (device === 'phone') {
    const menu = page.locator('.nav-toggle');
    if (await menu.isVisible()) {
      await expectOnScreen(page, menu, 'the Menu button');
      await menu.tap();
      await expect(menu).toHaveAttribute('aria-expanded', 'true');
    }
  }
  const button = switcher.getByRole('button', { name: AUTONYM[to] });
  await expectOnScreen(page, button, `the ${AUTONYM[to]} button`);
  // Measured with the menu open: opening it pushes the page down as it always did.
  const middle = await middleOf(page, cards);
  await saveScreenshot(page, `${shot}-before`, { fullPage: false });
  const box = (await button.boundingBox())!;
  // Pressed where it is on screen: a locator's click would scroll to it first.
  if (device === 'phone') await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
  else await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.locator('html')).toHaveAttribute('lang', to);
  await expect(switcher.getByRole('button', { name: AUTONYM[to] })).toHaveAttribute('aria-pressed', 'true');

  // Still far down, and what was in the middle of the window is still about there (texts above
  // it change length; the browser keeps what is in view in place, after a reload too).
  await expect.poll(() => page.evaluate(() => window.scrollY), { message: 'still scrolled far down' }).toBeGreaterThan(scrolled - 300);
  await expect.poll(async () => Math.abs(((await topOf(page, middle)) ?? Infinity) - middle.top), { message: 'what was in the middle of the window stayed there' }).toBeLessThanOrEqual(100);
  await saveScreenshot(page, `${shot}-after`, { fullPage: false });
}

for (const device of Object.keys(DEVICES) as Device[]) {
  for (const language of ['en', 'es'] as const) {
    test(`${device}, ${language}: far down the property page and the public listing, the language switch is in reach and keeps the place`, async ({ browser, data }) => {
      const listing = await seedAgentWithListing(data);
      for (const displayOrder of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) {
        await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'BEDROOM', displayOrder, isMain: displayOrder === 0 });
      }
      const context = await browser.newContext({ ...DEVICES[device].options, baseURL: stack.webUrl, locale: language === 'en' ? 'en-US' : 'es-ES' });
      const page = await context.newPage();

      // The public listing: cached per language, rendered from its own root layout.
      await page.goto(`/listings/${listing.propertyId}`);
      // Four photos a row on a desktop: not as long as the property page, far enough to lose the header.
      await expect(page.getByTestId('original-photo')).toHaveCount(12);
      await switchFarDown(page, device, language, 'original-photo', `language-place-${device}-${language}-listing`, device === 'phone' ? DEVICES.phone.scrolled : 400);

      // The agent's property page (the pick made above is this browser's now: back to `language`).
      await signInQuickly(page, listing.agent);
      await page.goto(`/properties/${listing.propertyId}`);
      await expect(page.getByTestId('original-card')).toHaveCount(12);
      await switchFarDown(page, device, OTHER[language], 'original-card', `language-place-${device}-${language}-property`, DEVICES[device].scrolled);
      await context.close();
    });
  }
}

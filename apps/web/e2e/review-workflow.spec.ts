import type { Page } from '@playwright/test';
import { findImage, seedAgentWithListing, seedOriginalPhoto, seedStagedVariant } from '@staging/stack/e2e-fixtures';
import { letApprovalLapse } from './support/approval-hold';
import { expect, saveScreenshot, signInQuickly, stack, test } from './support/fixtures';

const PHONE = { width: 390, height: 844 };

/** Rendered box of `selector` inside the page, as width / height. */
async function renderedAspect(page: Page, testId: string): Promise<number> {
  const box = await page.getByTestId(testId).first().boundingBox();
  expect(box, `${testId} is rendered`).not.toBeNull();
  return box!.width / box!.height;
}

test('a 3:2 photo with a 1:1 result: the original is shown whole and the result visibly as a crop', async ({ page, data }) => {
  const listing = await seedAgentWithListing(data);
  const original = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'LIVING_ROOM', isMain: true });
  expect([original.width, original.height]).toEqual([1200, 800]);
  const variant = await seedStagedVariant(data, { original, canonicalStyle: 'MODERN' });
  await signInQuickly(page, listing.agent);
  await page.goto(`/review?image=${variant.id}`);
  const item = page.getByTestId('review-item');
  await expect(item).toHaveCount(1);

  // The frame has the original's shape and the original fills it uncropped (contain, same ratio).
  const before = item.getByTestId('compare-before');
  await expect.poll(() => before.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([1200, 800]);
  expect(await renderedAspect(page, 'compare-slider')).toBeCloseTo(1.5, 1);
  expect(await before.evaluate((img) => getComputedStyle(img).objectFit)).toBe('contain');
  const beforeBox = (await before.boundingBox())!;
  expect(beforeBox.width / beforeBox.height).toBeCloseTo(1.5, 1);
  const after = item.getByTestId('compare-after');
  await expect.poll(() => after.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([1024, 1024]);
  expect(await after.evaluate((img) => getComputedStyle(img).objectFit)).toBe('contain');

  // The square result is outlined on the photo: two thirds of its width, full height. (On screen
  // first: the pointer below drags it, and the page opens at its top.)
  await item.getByTestId('compare-slider').scrollIntoViewIfNeeded();
  const stageBox = (await item.getByTestId('compare-slider').boundingBox())!;
  const cropBox = (await item.getByTestId('compare-crop').boundingBox())!;
  expect(cropBox.width / stageBox.width).toBeCloseTo(2 / 3, 1);
  expect(cropBox.height / stageBox.height).toBeCloseTo(1, 1);
  await expect(item.getByTestId('compare-crop-note')).toContainText('The staged image is 1:1 but the photo is 3:2');
  await saveScreenshot(page, 'review-compare-crop');

  // Dragging on the photo moves the handle; so do the arrow keys.
  const slider = item.getByRole('slider');
  await page.mouse.move(stageBox.x + stageBox.width / 2, stageBox.y + stageBox.height / 2);
  await page.mouse.down();
  await page.mouse.move(stageBox.x + stageBox.width * 0.25, stageBox.y + stageBox.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(slider).toHaveAttribute('aria-valuenow', '25');
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await expect(slider).toHaveAttribute('aria-valuenow', '26');
  await page.keyboard.press('End');
  await expect(slider).toHaveAttribute('aria-valuetext', '0% of the staged image visible');

  // Side by side keeps each image's own shape.
  await item.getByRole('button', { name: 'Side by side' }).click();
  await expect(item.getByText('After: AI staged · 1:1 · 1024×1024')).toBeVisible();
  await expect(item.getByText('Before: original photo · 3:2 · 1200×800')).toBeVisible();

  // Full resolution in a lightbox, and downloads of both files.
  await item.getByRole('button', { name: 'Full size original' }).click();
  const lightbox = page.getByRole('dialog', { name: /original$/ });
  await expect(lightbox).toBeVisible();
  await expect.poll(() => lightbox.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1200);
  await lightbox.getByRole('button', { name: 'Actual size' }).click();
  expect((await lightbox.locator('img').boundingBox())!.width).toBeCloseTo(1200, -1);
  await saveScreenshot(page, 'review-lightbox', { fullPage: false });
  await lightbox.getByRole('button', { name: 'Close' }).click();
  await expect(lightbox).toBeHidden();
  const download = page.waitForEvent('download');
  await item.getByRole('link', { name: 'Download staged' }).click();
  expect((await download).suggestedFilename()).toMatch(/staged\.jpg$/);

  await page.setViewportSize(PHONE);
  await item.getByRole('button', { name: 'Slider' }).click();
  expect(await renderedAspect(page, 'compare-slider')).toBeCloseTo(1.5, 1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await saveScreenshot(page, 'review-compare-crop-phone');
});

test('review at speed: shortcuts, bulk approve with confirmation, reject with a reason', async ({ page, data }) => {
  const listing = await seedAgentWithListing(data);
  const variants = [];
  for (const [index, wall] of ['#d9cbb8', '#c9d6df', '#e0d4e8', '#d4e8d4'].entries()) {
    const original = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'BEDROOM', displayOrder: index, wall, isMain: index === 0 });
    variants.push(await seedStagedVariant(data, { original, canonicalStyle: 'SCANDINAVIAN' }));
  }
  await signInQuickly(page, listing.agent);
  await page.clock.install();
  await page.goto('/review');
  const items = page.getByTestId('review-item');
  await expect(items).toHaveCount(4);
  const current = page.locator('[data-testid="review-item"][data-current="true"]');
  await expect(current).toHaveCount(1);
  const first = await current.getAttribute('data-image-id');

  // J/K move between items; A approves the current one (once its Undo lapses) and moves on.
  await page.keyboard.press('j');
  await expect(current).not.toHaveAttribute('data-image-id', first!);
  await page.keyboard.press('k');
  await expect(current).toHaveAttribute('data-image-id', first!);
  await page.keyboard.press('a');
  await letApprovalLapse(page);
  await expect(page.getByRole('status').filter({ hasText: /^Approved Photo/ })).toBeVisible();
  await expect(items).toHaveCount(3);
  await expect.poll(async () => (await findImage(data, first!))?.reviewStatus).toBe('APPROVED');

  // R rejects the current one, with a reason.
  const second = await current.getAttribute('data-image-id');
  await page.keyboard.press('r');
  const dialog = page.getByRole('dialog', { name: /^Reject Photo/ });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Reason (optional)').fill('Rug hides the floor');
  await dialog.getByRole('button', { name: 'Reject variant' }).click();
  await expect(items).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Try again in the same style' })).toBeVisible();
  expect(await findImage(data, second!)).toBeNull();
  const event = await data.db.propertyImageReviewEvent.findFirst({ where: { imageId: second!, kind: 'REJECTED' } });
  expect(event?.reason).toBe('Rug hides the floor');
  await saveScreenshot(page, 'review-queue');

  // Bulk: select the rest, approve after a confirmation.
  await page.getByLabel('Select all').check();
  await page.getByRole('button', { name: 'Approve selected (2)' }).click();
  const confirm = page.getByRole('dialog', { name: 'Approve 2 variants?' });
  await expect(confirm).toBeVisible();
  await saveScreenshot(page, 'review-bulk-confirm', { fullPage: false });
  await confirm.getByRole('button', { name: 'Approve all selected' }).click();
  await expect(items).toHaveCount(0);
  expect(await data.db.propertyImage.count({ where: { propertyId: listing.propertyId, isStyled: true, reviewStatus: 'APPROVED' } })).toBe(3);
  await expect(page.getByTestId('published-item')).toHaveCount(3);

  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await saveScreenshot(page, 'review-queue-phone');
});

test('taking down an approved variant removes it from the public page', async ({ page, browser, data }) => {
  const listing = await seedAgentWithListing(data);
  const original = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'LIVING_ROOM', isMain: true });
  const variant = await seedStagedVariant(data, { original, canonicalStyle: 'COASTAL', reviewStatus: 'APPROVED', reviewedByUserId: listing.agent.id });

  const anonymous = await browser.newContext({ baseURL: stack.webUrl });
  const visitor = await anonymous.newPage();
  await visitor.goto(`/listings/${listing.propertyId}`);
  await expect(visitor.getByTestId('staged-photo')).toHaveCount(1);

  await signInQuickly(page, listing.agent);
  await page.goto('/review');
  const published = page.getByTestId('published-item');
  await expect(published).toHaveCount(1);
  await published.getByRole('button', { name: /^Take down/ }).click();
  const dialog = page.getByRole('dialog', { name: /^Take down Photo 1/ });
  // A take-down needs a reason: without one the dialog says so and nothing is sent.
  await dialog.getByRole('button', { name: 'Take down' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(/^Write a reason/);
  expect(await findImage(data, variant.id)).not.toBeNull();
  await dialog.getByLabel('Reason (required)').fill('Seller asked to remove it');
  await dialog.getByRole('button', { name: 'Take down' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Took down Photo 1/ })).toBeVisible();
  await expect(published).toHaveCount(0);

  // REJECTED event with the reason, the row gone, the object queued for deletion.
  expect(await findImage(data, variant.id)).toBeNull();
  const events = await data.db.propertyImageReviewEvent.findMany({ where: { imageId: variant.id }, orderBy: { createdAt: 'asc' } });
  expect(events.at(-1)).toMatchObject({ kind: 'REJECTED', reason: 'Seller asked to remove it' });
  expect(await data.db.storageDeletionOutbox.count({ where: { objectKey: variant.objectKey, reason: 'STAGED_IMAGE_DELETED' } })).toBe(1);

  await visitor.goto(`/listings/${listing.propertyId}`);
  await expect(visitor.getByTestId('original-photo')).toHaveCount(1);
  await expect(visitor.getByTestId('staged-photo')).toHaveCount(0);
  expect(await visitor.content()).not.toContain(variant.id);
  await anonymous.close();
});

test('on a touch screen the handle follows a finger dragged across the photo', async ({ browser, data }) => {
  const listing = await seedAgentWithListing(data);
  const original = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'KITCHEN', isMain: true });
  await seedStagedVariant(data, { original, canonicalStyle: 'FARMHOUSE' });
  const context = await browser.newContext({ baseURL: stack.webUrl, viewport: PHONE, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await signInQuickly(page, listing.agent);
  await page.goto('/review');
  const stage = page.getByTestId('compare-slider');
  await expect(stage).toBeVisible();
  const box = (await stage.boundingBox())!;
  const y = box.y + box.height / 2;
  // Real touch input through the DevTools protocol: the browser turns it into touch pointer events.
  const cdp = await context.newCDPSession(page);
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
  await touch('touchStart', box.x + box.width * 0.5);
  for (const share of [0.6, 0.7, 0.8]) await touch('touchMove', box.x + box.width * share);
  await touch('touchEnd', box.x + box.width * 0.8);
  await expect(page.getByRole('slider')).toHaveAttribute('aria-valuenow', '80');
  await context.close();
});

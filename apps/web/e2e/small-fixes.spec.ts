import type { Browser, Page } from '@playwright/test';
import { MAX_UPLOAD_BYTES } from '@staging/domain/photo-upload';
import { countStagingJobs, drawRoomPhoto, seedAgentWithListing, seedOriginalPhoto, seedStagedVariant } from '@staging/stack/e2e-fixtures';
import { expect, saveScreenshot, signInQuickly, stack, test, type Credentials, VIEWPORTS } from './support/fixtures';
import { seedFinishedJob } from './support/seed-jobs';

// Nothing here buys a prediction: staging is only submitted where every assignment already has a
// variant (style_exists), so the simulator's scripted faults stay with staging.spec.ts.

const TEXTS = {
  en: {
    browserLocale: 'en-US',
    select: 'Select',
    takeDown: /^Take down/,
    takeDownConfirm: 'Take down',
    reason: 'Reason (required)',
    reasonMissing: 'Write a reason before taking it down; it is kept with the review history.',
    tookDown: /^Took down /,
    tooLarge: 'This file is 16.7 MB; a photo can be at most 15 MB. It was not sent: make the photo smaller (for example, export it as JPEG) and add it again.',
    dropText: 'Drop photos here (JPEG, PNG or WebP, up to 15 MB each), or',
    uploadOne: 'Upload 1 photo',
    uploaded: 'Uploaded 1 photo.',
    stage: 'Stage selected photos',
    pickAtLeastOne: 'Select at least one photo and a style.',
    modern: /^Modern/,
    reviewPending: 'Open it in review to approve or reject it.',
    reviewApproved: 'Open it in review to take it down.',
    inventory: (title: string) => `Inventory · ${title} · Listings dashboard`,
    property: (title: string) => `${title} · Listings dashboard`,
  },
  es: {
    browserLocale: 'es-ES',
    select: 'Seleccionar',
    takeDown: /^Retirar/,
    takeDownConfirm: 'Retirar',
    reason: 'Motivo (obligatorio)',
    reasonMissing: 'Escriba un motivo antes de retirarla; se guarda en el historial de revisión.',
    tookDown: /^Se retiró /,
    tooLarge: 'Este archivo ocupa 16,7 MB; una foto puede ocupar como máximo 15 MB. No se envió: reduzca la foto (por ejemplo, expórtela como JPEG) y vuelva a añadirla.',
    dropText: 'Suelte las fotos aquí (JPEG, PNG o WebP, hasta 15 MB cada una) o',
    uploadOne: 'Subir 1 foto',
    uploaded: 'Se subió 1 foto.',
    stage: 'Amueblar las fotos elegidas',
    pickAtLeastOne: 'Elija al menos una foto y un estilo.',
    modern: /^Moderno/,
    reviewPending: 'Ábrala en revisión para aprobarla o rechazarla.',
    reviewApproved: 'Ábrala en revisión para retirarla.',
    inventory: (title: string) => `Inventario · ${title} · Panel de anuncios`,
    property: (title: string) => `${title} · Panel de anuncios`,
  },
} as const;

type Language = keyof typeof TEXTS;
const LANGUAGES = Object.keys(TEXTS) as Language[];

async function signedInPage(browser: Browser, language: Language, agent: Credentials): Promise<Page> {
  const context = await browser.newContext({ baseURL: stack.webUrl, locale: TEXTS[language].browserLocale });
  const page = await context.newPage();
  await signInQuickly(page, agent);
  return page;
}

for (const viewport of VIEWPORTS) {
  test(`${viewport.name}: one click on a review card's Select below the fold selects it, and the page stays put`, async ({ browser, data }) => {
    const listing = await seedAgentWithListing(data);
    for (const [index, wall] of ['#d9cbb8', '#c9d6df', '#e0d4e8'].entries()) {
      const original = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'BEDROOM', displayOrder: index, wall, isMain: index === 0 });
      await seedStagedVariant(data, { original, canonicalStyle: 'SCANDINAVIAN' });
    }
    const page = await signedInPage(browser, 'en', listing.agent);
    await page.setViewportSize(viewport);
    await page.goto('/review');
    const items = page.getByTestId('review-item');
    await expect(items).toHaveCount(3);
    await expect(items.first()).toHaveAttribute('data-current', 'true');

    // The second card's checkbox just above the bottom edge, the rest of the card below the fold:
    // where an agent scrolling down meets it.
    const second = items.nth(1);
    const select = second.getByRole('checkbox', { name: /^Select/ });
    await select.scrollIntoViewIfNeeded();
    const before = (await select.boundingBox())!;
    await page.evaluate((by) => window.scrollBy(0, by), before.y + before.height - (viewport.height - 40));
    const box = (await select.boundingBox())!;
    const card = (await second.boundingBox())!;
    expect(box.y + box.height, 'the checkbox is on screen').toBeLessThanOrEqual(viewport.height);
    expect(card.y + card.height, 'the card reaches below the fold').toBeGreaterThan(viewport.height);

    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect(select).toBeChecked();
    await expect(page.getByRole('button', { name: 'Approve selected (1)' })).toBeVisible();
    // The checkbox is still under the pointer. (The bulk buttons that appear above grow the
    // toolbar; the browser's scroll anchoring keeps what is on screen in place, so it is the
    // checkbox's place on screen that counts, not the scroll offset.)
    const after = (await select.boundingBox())!;
    expect(Math.abs(after.y - box.y), 'the card did not move on screen').toBeLessThanOrEqual(1);
    await saveScreenshot(page, `small-review-select-${viewport.name}`, { fullPage: false });

    // The shortcuts still bring the card they move to into view (they are off while the
    // checkbox has focus, as in any field).
    await page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      window.scrollTo(0, 0);
    });
    await expect(items.nth(2)).not.toBeInViewport();
    await page.keyboard.press('j');
    await expect(items.nth(2)).toHaveAttribute('data-current', 'true');
    await expect(items.nth(2)).toBeInViewport();
    await page.context().close();
  });
}

for (const language of LANGUAGES) {
  const texts = TEXTS[language];

  test(`${language}: take-down with an empty reason says why inline and keeps focus on the reason`, async ({ browser, data }) => {
    const listing = await seedAgentWithListing(data);
    const original = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'LIVING_ROOM', isMain: true });
    await seedStagedVariant(data, { original, canonicalStyle: 'COASTAL', reviewStatus: 'APPROVED', reviewedByUserId: listing.agent.id });
    const page = await signedInPage(browser, language, listing.agent);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await page.goto('/review');
      await page.getByTestId('published-item').getByRole('button', { name: texts.takeDown }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      const reason = dialog.getByLabel(texts.reason);

      await dialog.getByRole('button', { name: texts.takeDownConfirm, exact: true }).click();
      const message = dialog.getByRole('alert');
      await expect(message).toHaveText(texts.reasonMissing);
      await expect(reason).toBeFocused();
      await expect(reason).toHaveAttribute('aria-invalid', 'true');
      await expect(reason).toHaveAccessibleDescription(texts.reasonMissing);
      await saveScreenshot(page, `small-take-down-reason-${language}-${viewport.name}`, { fullPage: false });

      // Typing a reason clears the message; a blank one brings it back.
      await reason.fill('Seller asked');
      await expect(message).toHaveCount(0);
      await expect(reason).not.toHaveAttribute('aria-invalid', 'true');
      await reason.fill('   ');
      await dialog.getByRole('button', { name: texts.takeDownConfirm, exact: true }).click();
      await expect(message).toHaveText(texts.reasonMissing);
      await expect(reason).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }
    // Still published: nothing was sent without a reason.
    expect(await data.db.propertyImage.count({ where: { propertyId: listing.propertyId, isStyled: true, reviewStatus: 'APPROVED' } })).toBe(1);
    await page.getByTestId('published-item').getByRole('button', { name: texts.takeDown }).click();
    await page.getByRole('dialog').getByLabel(texts.reason).fill('Seller asked');
    await page.getByRole('dialog').getByRole('button', { name: texts.takeDownConfirm, exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: texts.tookDown })).toBeVisible();
    await page.context().close();
  });

  test(`${language}: a file over the upload limit is refused before a byte is sent, sizes in the page's language`, async ({ browser, data }) => {
    const listing = await seedAgentWithListing(data);
    const page = await signedInPage(browser, language, listing.agent);
    const sent: number[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/api/properties/${listing.propertyId}/images`)) sent.push(request.postDataBuffer()?.length ?? 0);
    });
    await page.goto(`/properties/${listing.propertyId}`);
    const upload = page.getByTestId('photo-drop-zone').locator('..');
    await expect(page.getByText(texts.dropText)).toBeVisible();

    // 16.63 MB (a camera export's size): a JPEG start and zeros; too large is the whole story, the
    // bytes are never read.
    const bytes = Buffer.alloc(17_438_514);
    expect(bytes.length).toBeGreaterThan(MAX_UPLOAD_BYTES);
    bytes.set([0xff, 0xd8, 0xff]);
    await upload.locator('input[type="file"]').setInputFiles([
      { name: 'huge.jpg', mimeType: 'image/jpeg', buffer: bytes },
      { name: 'small.jpg', mimeType: 'image/jpeg', buffer: await drawRoomPhoto() },
    ]);
    const huge = page.locator('[data-testid="upload-item"][data-name="huge.jpg"]');
    await expect(huge).toHaveAttribute('data-state', 'refused');
    await expect(huge).toContainText(texts.tooLarge);
    // The size beside the file is the size its refusal names, not a rounding apart from it.
    await expect(huge.getByText(/^16[.,]\d\sMB$/)).toHaveText(language === 'es' ? /^16,7\sMB$/ : /^16\.7\sMB$/);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await expect(huge).toBeVisible();
      await saveScreenshot(page, `small-upload-too-large-${language}-${viewport.name}`);
    }

    // Only the photo within the limit goes out.
    await upload.getByRole('button', { name: texts.uploadOne }).click();
    await expect(page.getByTestId('upload-summary')).toContainText(texts.uploaded);
    await expect(huge).toHaveAttribute('data-state', 'refused');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toBeLessThan(MAX_UPLOAD_BYTES);
    await page.context().close();
  });

  test(`${language}: "select at least one photo and a style" goes away as soon as the selection can be staged`, async ({ browser, data }) => {
    const listing = await seedAgentWithListing(data);
    await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'LIVING_ROOM', isMain: true, fileName: 'lounge.jpg' });
    const page = await signedInPage(browser, language, listing.agent);
    await page.goto(`/properties/${listing.propertyId}`);
    const panel = page.locator('#stage-panel');
    const message = panel.getByRole('alert').filter({ hasText: texts.pickAtLeastOne });
    await panel.getByRole('button', { name: texts.stage }).click();
    await expect(message).toBeVisible();
    // A photo without a style is still not enough.
    await panel.getByRole('checkbox', { name: 'lounge.jpg' }).check();
    await expect(message).toBeVisible();
    await panel.getByRole('radio', { name: texts.modern }).check();
    await expect(message).toHaveCount(0);
    await saveScreenshot(page, `small-stage-message-cleared-${language}`);
    // Once asked, the form keeps following the selection: undoing it says so again.
    await panel.getByRole('checkbox', { name: 'lounge.jpg' }).uncheck();
    await expect(message).toBeVisible();
    expect(await countStagingJobs(data, listing.propertyId)).toBe(0);
    await page.context().close();
  });

  test(`${language}: "already staged" says what can be done with the variant in the way, pending or approved`, async ({ browser, data }) => {
    const listing = await seedAgentWithListing(data);
    const pendingPhoto = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'LIVING_ROOM', isMain: true, fileName: 'pending.jpg' });
    const approvedPhoto = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'BEDROOM', displayOrder: 1, fileName: 'approved.jpg' });
    const pending = await seedStagedVariant(data, { original: pendingPhoto, canonicalStyle: 'MODERN' });
    const approved = await seedStagedVariant(data, { original: approvedPhoto, canonicalStyle: 'MODERN', reviewStatus: 'APPROVED', reviewedByUserId: listing.agent.id });
    const page = await signedInPage(browser, language, listing.agent);
    await page.goto(`/properties/${listing.propertyId}`);
    const panel = page.locator('#stage-panel');
    await panel.getByRole('checkbox', { name: 'pending.jpg' }).check();
    await panel.getByRole('checkbox', { name: 'approved.jpg' }).check();
    await panel.getByRole('radio', { name: texts.modern }).check();
    await panel.getByRole('button', { name: texts.stage }).click();

    const results = page.getByTestId('stage-results');
    await expect(results.locator('[data-disposition="style_exists"]')).toHaveCount(2);
    const pendingRow = results.locator('li').filter({ hasText: 'pending.jpg' });
    const approvedRow = results.locator('li').filter({ hasText: 'approved.jpg' });
    await expect(pendingRow.getByRole('link')).toHaveText(texts.reviewPending);
    await expect(pendingRow.getByRole('link')).toHaveAttribute('href', `/review?image=${pending.id}`);
    await expect(approvedRow.getByRole('link')).toHaveText(texts.reviewApproved);
    await expect(approvedRow.getByRole('link')).toHaveAttribute('href', `/review?image=${approved.id}`);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await results.scrollIntoViewIfNeeded();
      await saveScreenshot(page, `small-already-staged-${language}-${viewport.name}`, { fullPage: false });
    }
    expect(await countStagingJobs(data, listing.propertyId)).toBe(0);
    await page.context().close();
  });

  test(`${language}: on a phone the spend table's last column is on screen`, async ({ browser, data }) => {
    const listing = await seedAgentWithListing(data, { title: `Dave's flat by the old harbour ${Date.now().toString(36)}` });
    const original = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'LIVING_ROOM', isMain: true });
    const job = { propertyId: listing.propertyId, originalImageId: original.id, status: 'FAILED', errorCode: 'ATTEMPTS_EXHAUSTED', attempts: 2 } as const;
    await seedFinishedJob(data, { ...job, costMicrousd: 42_000 });
    for (let n = 0; n < 3; n += 1) await seedFinishedJob(data, { ...job, costMicrousd: null });
    const page = await signedInPage(browser, language, listing.agent);
    await page.goto('/spend');
    const rows = page.getByTestId('spend-row');
    await expect(rows).toHaveCount(1);
    await expect(rows.getByTestId('spend-estimate')).toContainText('+6');
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      // Every cell of the last column ends inside the viewport and inside the table's own box: the
      // table fits, nothing is cut off or hidden in a sideways scroll.
      const overflow = await page.evaluate(() => {
        const table = document.querySelector('.spend-table')!;
        const frame = table.parentElement!;
        const cells = [...table.querySelectorAll('tr > :last-child')];
        const right = Math.max(...cells.map((cell) => cell.getBoundingClientRect().right));
        return { right, viewport: document.documentElement.clientWidth, frame: frame.getBoundingClientRect().right, scroll: frame.scrollWidth - frame.clientWidth };
      });
      expect(overflow.right, 'last column inside the viewport').toBeLessThanOrEqual(overflow.viewport);
      expect(overflow.right, 'last column inside its frame').toBeLessThanOrEqual(overflow.frame + 0.5);
      expect(overflow.scroll, 'no sideways scroll in the table').toBeLessThanOrEqual(0);
      await saveScreenshot(page, `small-spend-${language}-${viewport.name}`);
    }
    await page.context().close();
  });

  test(`${language}: the tab of a property's pages names the property`, async ({ browser, data }) => {
    const listing = await seedAgentWithListing(data, { title: `Casa Lucía ${Date.now().toString(36)}` });
    const page = await signedInPage(browser, language, listing.agent);
    await page.goto(`/properties/${listing.propertyId}`);
    await expect(page).toHaveTitle(texts.property(listing.title));
    await page.goto(`/properties/${listing.propertyId}/inventory`);
    await expect(page).toHaveTitle(texts.inventory(listing.title));
    // Someone else's property: the tab does not leak its name.
    const stranger = await seedAgentWithListing(data);
    await page.goto(`/properties/${stranger.propertyId}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await page.title()).not.toContain(stranger.title);
    await page.context().close();
  });
}

test('the site has an icon: pages of both layouts link it and /favicon.ico answers it', async ({ page, request }) => {
  const ico = await request.get('/favicon.ico');
  expect(ico.status()).toBe(200);
  expect(ico.headers()['content-type']).toBe('image/x-icon');
  for (const path of ['/sign-in', '/search']) {
    await page.goto(path);
    const icons = page.locator('link[rel="icon"]');
    await expect(icons.first()).toBeAttached();
    for (const href of await icons.evaluateAll((links) => links.map((link) => (link as HTMLLinkElement).href))) {
      expect((await request.get(href)).status(), `${path} links ${href}`).toBe(200);
    }
  }
});

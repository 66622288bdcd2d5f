import type { Browser, Locator, Page } from '@playwright/test';
import { drawRoomPhoto, findImage, seedAgentWithListing, seedOriginalPhoto, seedStagedVariant, type E2eData } from '@staging/stack/e2e-fixtures';
import { expect, saveScreenshot, signInQuickly, stack, test } from './support/fixtures';

const TEXT = {
  en: {
    publicSwitch: /^Show on the public page/,
    newPhotosSwitch: 'Show new photos on the public page as soon as they are uploaded',
    hidden: 'Not on the public page',
    count: (shown: number, total: number) => `${shown} of ${total} ${total === 1 ? 'photo' : 'photos'} on the public page`,
    setAsCover: /^Set as cover/,
    cover: 'Cover',
    label: 'AI · Virtually staged',
    seeOriginal: 'See original',
    seeStaged: 'See staged version',
    enlarge: /^View larger: /,
    close: 'Close',
    next: 'Next photo',
    position: (index: number, count: number) => `${index} of ${count}`,
  },
  es: {
    publicSwitch: /^Mostrar en la página pública/,
    newPhotosSwitch: 'Mostrar las fotos nuevas en la página pública en cuanto se suban',
    hidden: 'No aparece en la página pública',
    count: (shown: number, total: number) => `${shown} de ${total} ${total === 1 ? 'foto' : 'fotos'} en la página pública`,
    setAsCover: /^Usar como portada/,
    cover: 'Portada',
    label: 'IA · Amueblado virtual',
    seeOriginal: 'Ver original',
    seeStaged: 'Ver versión amueblada',
    enlarge: /^Ver más grande: /,
    close: 'Cerrar',
    next: 'Foto siguiente',
    position: (index: number, count: number) => `${index} de ${count}`,
  },
} as const;

type Lang = keyof typeof TEXT;

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
type Device = keyof typeof VIEWPORTS;

const CASES = (['en', 'es'] as const).flatMap((lang) => (['desktop', 'phone'] as const).map((device) => [lang, device] as const));

async function openContext(browser: Browser, lang: Lang, device: Device) {
  return browser.newContext({ baseURL: stack.webUrl, locale: lang === 'en' ? 'en-US' : 'es-ES', viewport: VIEWPORTS[device] });
}

function card(page: Page, imageId: string): Locator {
  return page.locator(`[data-testid="original-card"][data-image-id="${imageId}"]`);
}

/** The ids the public page shows as originals and as staged versions, in page order. */
async function publicIds(page: Page) {
  const ids = (testId: string) => page.getByTestId(testId).evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-image-id')));
  return { originals: await ids('original-photo'), staged: await ids('staged-photo') };
}

async function seedThreeRooms(data: E2eData, title: string) {
  const listing = await seedAgentWithListing(data, { title });
  const living = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'LIVING_ROOM', isMain: true, displayOrder: 0 });
  const bedroom = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'BEDROOM', displayOrder: 1, wall: '#c9d6df' });
  const kitchen = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'KITCHEN', displayOrder: 2, wall: '#e3d5c3' });
  const staged = await seedStagedVariant(data, { original: bedroom, canonicalStyle: 'COASTAL', reviewStatus: 'APPROVED', reviewedByUserId: listing.agent.id });
  return { listing, living, bedroom, kitchen, staged };
}

for (const [lang, device] of CASES) {
  const text = TEXT[lang];

  test(`(${lang}, ${device}) a hidden photo leaves the public page with its staged version; the cover is the agent's choice`, async ({ browser, data }) => {
    const { listing, living, bedroom, kitchen, staged } = await seedThreeRooms(data, `Control flat ${Date.now().toString(36)}`);
    const context = await openContext(browser, lang, device);
    const page = await context.newPage();
    await signInQuickly(page, listing.agent);
    await page.goto(`/properties/${listing.propertyId}`);
    await expect(page.getByTestId('public-count')).toHaveText(text.count(3, 3));

    const bedroomSwitch = card(page, bedroom.id).getByRole('switch', { name: text.publicSwitch });
    await expect(bedroomSwitch).toBeChecked();
    await bedroomSwitch.uncheck();
    await expect(card(page, bedroom.id).getByTestId('hidden-flag')).toHaveText(text.hidden);
    await expect(page.getByTestId('public-count')).toHaveText(text.count(2, 3));
    // A hidden photo is not offered as the cover.
    await expect(card(page, bedroom.id).getByRole('button', { name: text.setAsCover })).toHaveCount(0);

    await card(page, kitchen.id).getByRole('button', { name: text.setAsCover }).click();
    await expect(card(page, kitchen.id).getByText(text.cover, { exact: true })).toBeVisible();
    await expect(card(page, living.id).getByText(text.cover, { exact: true })).toHaveCount(0);
    await saveScreenshot(page, `public-control-agent-${lang}-${device}`);
    expect(await findImage(data, bedroom.id)).toMatchObject({ isPublic: false });

    const visitor = await (await openContext(browser, lang, device)).newPage();
    await visitor.goto(`/listings/${listing.propertyId}`);
    await expect(visitor.getByTestId('original-photo')).toHaveCount(2);
    expect(await publicIds(visitor)).toEqual({ originals: [living.id, kitchen.id], staged: [] });
    await expect(visitor.getByTestId('cover').locator('img')).toHaveAttribute('src', `/api/public/images/${kitchen.id}/content`);
    const html = await visitor.content();
    expect(html).not.toContain(bedroom.id);
    expect(html).not.toContain(staged.id);
    for (const id of [bedroom.id, staged.id]) {
      expect((await visitor.request.get(`/api/public/images/${id}/content`)).status()).toBe(404);
      expect((await visitor.request.get(`/api/public/images/${id}/derivatives/display`)).status()).toBe(404);
    }
    await saveScreenshot(visitor, `public-control-visitor-${lang}-${device}`);

    // Shown again, the photo and its staged version are back beside each other.
    await card(page, bedroom.id).getByRole('switch', { name: text.publicSwitch }).check();
    await expect(card(page, bedroom.id).getByTestId('hidden-flag')).toHaveCount(0);
    await visitor.reload();
    await expect(visitor.getByTestId('original-photo')).toHaveCount(3);
    expect(await publicIds(visitor)).toEqual({ originals: [living.id, bedroom.id, kitchen.id], staged: [staged.id] });
    await visitor.context().close();
    await context.close();
  });

  test(`(${lang}, ${device}) new uploads follow the listing's default for the public page`, async ({ browser, data }) => {
    const listing = await seedAgentWithListing(data, { title: `Upload flat ${Date.now().toString(36)}` });
    const context = await openContext(browser, lang, device);
    const page = await context.newPage();
    await signInQuickly(page, listing.agent);
    await page.goto(`/properties/${listing.propertyId}`);
    const defaultSwitch = page.getByRole('switch', { name: text.newPhotosSwitch });
    await expect(defaultSwitch).not.toBeChecked();

    const upload = async (name: string, count: number) => {
      const form = page.locator('form').filter({ has: page.locator('input[type="file"]') });
      await form.locator('input[type="file"]').setInputFiles({ name, mimeType: 'image/jpeg', buffer: await drawRoomPhoto() });
      await form.locator('button[type="submit"]').click();
      await expect(page.getByTestId('original-card')).toHaveCount(count);
      return page.getByTestId('original-card').filter({ hasText: name });
    };

    const first = await upload('hall.jpg', 1);
    await expect(first.getByTestId('hidden-flag')).toHaveText(text.hidden);
    await expect(first.getByRole('switch', { name: text.publicSwitch })).not.toBeChecked();
    await expect(page.getByTestId('public-count')).toHaveText(text.count(0, 1));
    const firstId = (await first.getAttribute('data-image-id'))!;
    expect(await findImage(data, firstId)).toMatchObject({ isPublic: false });
    await saveScreenshot(page, `public-control-default-hidden-${lang}-${device}`);

    await defaultSwitch.check();
    // The switch shows the requested position at once and stays disabled until the server has
    // saved it; only then does an upload follow the new default.
    await expect(defaultSwitch).toBeChecked();
    await expect(defaultSwitch).toBeEnabled();
    const second = await upload('terrace.jpg', 2);
    await expect(second.getByRole('switch', { name: text.publicSwitch })).toBeChecked();
    await expect(second.getByTestId('hidden-flag')).toHaveCount(0);
    // The first photo keeps its own setting.
    await expect(first.getByTestId('hidden-flag')).toBeVisible();
    const secondId = (await second.getAttribute('data-image-id'))!;

    const visitor = await (await openContext(browser, lang, device)).newPage();
    await visitor.goto(`/listings/${listing.propertyId}`);
    await expect(visitor.getByTestId('original-photo')).toHaveCount(1);
    expect(await publicIds(visitor)).toEqual({ originals: [secondId], staged: [] });
    await expect(visitor.getByTestId('cover').locator('img')).toHaveAttribute('src', `/api/public/images/${secondId}/content`);
    expect(await visitor.content()).not.toContain(firstId);
    await visitor.context().close();
    await context.close();
  });

  test(`(${lang}, ${device}) a staged version sits beside its original with the label and a toggle; photos open larger; the cover is whole`, async ({ browser, data }) => {
    const { listing, bedroom, kitchen, staged } = await seedThreeRooms(data, `Gallery flat ${Date.now().toString(36)}`);
    const context = await openContext(browser, lang, device);
    const page = await context.newPage();
    await page.goto(`/listings/${listing.propertyId}`);

    // Beside its original: in the same group, to its right on a desktop, right below it on a phone.
    const group = page.getByTestId('photo-group').filter({ has: page.getByTestId('staged-photo') });
    await expect(group).toHaveCount(1);
    const original = group.getByTestId('original-photo');
    const stagedPhoto = group.getByTestId('staged-photo');
    await expect(original).toHaveAttribute('data-image-id', bedroom.id);
    await stagedPhoto.scrollIntoViewIfNeeded();
    // Both boxes in one read: images above still loading move the group between two reads.
    const placement = () =>
      group.evaluate((node) => {
        const box = (testId: string) => node.querySelector(`[data-testid="${testId}"]`)!.getBoundingClientRect();
        const a = box('original-photo');
        const b = box('staged-photo');
        return { sameRow: Math.abs(a.y - b.y) < 2, toTheRight: b.x > a.x + a.width - 1, sameColumn: Math.abs(a.x - b.x) < 2, below: b.y > a.y + a.height - 1 };
      });
    await expect
      .poll(placement)
      .toEqual(device === 'desktop' ? { sameRow: true, toTheRight: true, sameColumn: false, below: false } : { sameRow: false, toTheRight: false, sameColumn: true, below: true });
    await expect(stagedPhoto.getByText(text.label, { exact: true })).toBeVisible();
    const stagedImg = stagedPhoto.locator('img');
    await expect(stagedImg).toHaveAttribute('src', `/api/public/images/${staged.id}/derivatives/display`);
    await saveScreenshot(page, `public-gallery-${lang}-${device}`);

    await stagedPhoto.getByRole('button', { name: text.seeOriginal }).click();
    await expect(stagedImg).toHaveAttribute('src', `/api/public/images/${bedroom.id}/derivatives/display`);
    await expect(stagedPhoto.getByText(text.label, { exact: true })).toHaveCount(0);
    const toggle = stagedPhoto.getByRole('button', { name: text.seeStaged });
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await toggle.click();
    await expect(stagedImg).toHaveAttribute('src', `/api/public/images/${staged.id}/derivatives/display`);

    // The lightbox: keyboard opens it, Escape closes it, focus goes back to the photo.
    const opener = stagedPhoto.getByRole('button', { name: text.enlarge });
    await opener.focus();
    await page.keyboard.press('Enter');
    const lightbox = page.getByRole('dialog');
    await expect(lightbox).toBeVisible();
    await expect(lightbox).toContainText(text.label);
    await expect(lightbox.locator('img')).toHaveAttribute('src', `/api/public/images/${staged.id}/content`);
    await expect.poll(() => lightbox.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expect(lightbox.getByRole('button', { name: text.close })).toBeFocused();
    // Larger than the tile it was opened from.
    const area = (box: { width: number; height: number } | null) => (box === null ? 0 : box.width * box.height);
    expect(area(await lightbox.locator('img').boundingBox())).toBeGreaterThan(area(await stagedImg.boundingBox()));
    await saveScreenshot(page, `public-lightbox-${lang}-${device}`, { fullPage: false });

    // Previous and next go through the photos in page order: living room, bedroom, its staged
    // version, kitchen; by the arrow keys, the buttons and a swipe.
    const shows = (imageId: string) => expect(lightbox.locator('img')).toHaveAttribute('src', `/api/public/images/${imageId}/content`);
    await expect(lightbox.getByTestId('lightbox-position')).toHaveText(text.position(3, 4));
    await page.keyboard.press('ArrowLeft');
    await shows(bedroom.id);
    await expect(lightbox.getByTestId('lightbox-position')).toHaveText(text.position(2, 4));
    await lightbox.getByRole('button', { name: text.next }).click();
    await shows(staged.id);
    const body = lightbox.locator('.lightbox-body');
    const swipe = async (fromX: number, toX: number) => {
      await body.dispatchEvent('pointerdown', { clientX: fromX, clientY: 300, pointerType: 'touch', isPrimary: true });
      await body.dispatchEvent('pointerup', { clientX: toX, clientY: 305, pointerType: 'touch', isPrimary: true });
    };
    await swipe(300, 120);
    await shows(kitchen.id);
    await expect(lightbox.getByRole('button', { name: text.next })).toBeDisabled();
    await swipe(120, 300);
    await shows(staged.id);
    await page.keyboard.press('Escape');
    await expect(lightbox).toBeHidden();
    await expect(opener).toBeFocused();

    // The cover keeps its photo's shape (3:2 here), also where the page is wide.
    const cover = page.getByTestId('cover').locator('img');
    await cover.scrollIntoViewIfNeeded();
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const shape = await cover.evaluate((img: HTMLImageElement) => ({
      rendered: img.getBoundingClientRect().width / img.getBoundingClientRect().height,
      natural: img.naturalWidth / img.naturalHeight,
    }));
    expect(Math.abs(shape.rendered - shape.natural) / shape.natural).toBeLessThan(0.01);
    expect(shape.natural).toBeCloseTo(1.5, 2);
    // The cover opens larger too.
    await page.getByTestId('cover').getByRole('button', { name: text.enlarge }).click();
    await expect(lightbox).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(lightbox).toBeHidden();
    await saveScreenshot(page, `public-cover-${lang}-${device}`, { fullPage: false });
    await context.close();
  });
}

test('an upload started while the new-photos default is being saved waits for the save and follows the new default', async ({ browser, data }) => {
  const text = TEXT.en;
  const listing = await seedAgentWithListing(data, { title: `Hurried flat ${Date.now().toString(36)}` });
  const context = await openContext(browser, 'en', 'desktop');
  const page = await context.newPage();
  await signInQuickly(page, listing.agent);
  await page.goto(`/properties/${listing.propertyId}`);

  // The save is held until the upload has either been sent or shown that it waits for the save.
  const events: string[] = [];
  let releaseSave!: () => void;
  const saveReleased = new Promise<void>((resolve) => (releaseSave = resolve));
  let saveHeld!: () => void;
  const saveArrived = new Promise<void>((resolve) => (saveHeld = resolve));
  await page.route('**/api/trpc/property.setNewImagesPublic**', async (route) => {
    events.push('save held');
    saveHeld();
    await saveReleased;
    events.push('save released');
    await route.continue();
  });
  let uploadSent!: () => void;
  const uploadArrived = new Promise<void>((resolve) => (uploadSent = resolve));
  await page.route(`**/api/properties/${listing.propertyId}/images`, async (route) => {
    events.push('upload sent');
    uploadSent();
    await route.continue();
  });

  await page.getByRole('switch', { name: text.newPhotosSwitch }).check();
  await saveArrived;
  const form = page.locator('form').filter({ has: page.locator('input[type="file"]') });
  await form.locator('input[type="file"]').setInputFiles({ name: 'hurried.jpg', mimeType: 'image/jpeg', buffer: await drawRoomPhoto() });
  await form.locator('button[type="submit"]').click();
  const waiting = page.getByTestId('upload-summary').filter({ hasText: 'Saving the public-page setting first…' });
  // Whichever comes first; the other may never come, and must not fail the test later.
  await Promise.race([uploadArrived, waiting.waitFor().catch(() => undefined)]);
  await saveScreenshot(page, 'public-control-upload-waits-for-default');
  releaseSave();

  const uploaded = page.getByTestId('original-card').filter({ hasText: 'hurried.jpg' });
  await expect(uploaded).toHaveCount(1);
  expect(events).toEqual(['save held', 'save released', 'upload sent']);
  await expect(uploaded.getByRole('switch', { name: text.publicSwitch })).toBeChecked();
  expect(await findImage(data, (await uploaded.getAttribute('data-image-id'))!)).toMatchObject({ isPublic: true });
  await context.close();
});

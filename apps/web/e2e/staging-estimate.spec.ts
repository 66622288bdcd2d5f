import { seedAgentWithListing, seedOriginalPhoto, seedStagedVariant } from '@staging/stack/e2e-fixtures';
import { expect, saveScreenshot, signInQuickly, stack, test, VIEWPORTS } from './support/fixtures';

// Nothing here buys a prediction: the one submission carries only a photo already staged in the
// style, which the server answers style_exists.

const TEXTS = {
  en: {
    browserLocale: 'en-US',
    modern: /^Modern/,
    twoPhotos: / for 2 photos \(/,
    onePhoto: / for 1 photo \(/,
    alreadyStaged: 'Already staged in Modern, so not counted: living-room.jpg. To make a new one, reject or take down its variant first.',
    nothingToPay: /^Estimated price: nothing to pay: the selected photo is already staged in this style\./,
    small: 'Small for staging 1200×800 px; staged versions come out sharp from 1024 px on the short side.',
    submit: 'Stage selected photos',
    styleExists: /Already staged/,
    toStagePanel: 'Stage photos',
    waitingForReview: 'Waiting for review',
  },
  es: {
    browserLocale: 'es-ES',
    modern: /^Moderno/,
    twoPhotos: / por 2 fotos \(/,
    onePhoto: / por 1 foto \(/,
    alreadyStaged: 'Ya amueblada en estilo Moderno, así que no se cuenta: living-room.jpg. Para generar otra, rechace o retire antes su variante.',
    nothingToPay: /^Precio estimado: nada que pagar: la foto elegida ya está amueblada en este estilo\./,
    small: 'Pequeña para amueblar 1200×800 px; las versiones amuebladas salen nítidas a partir de 1024 px en el lado corto.',
    submit: 'Amueblar las fotos elegidas',
    styleExists: /Ya existe/,
    toStagePanel: 'Amueblar fotos',
    waitingForReview: 'Pendiente de revisión',
  },
} as const;

for (const viewport of VIEWPORTS) {
  for (const language of ['en', 'es'] as const) {
    const texts = TEXTS[language];

    test(`${viewport.name} ${language}: the estimate counts only the photos that will be staged, names those already staged, and a small photo warns when picked`, async ({
      browser,
      data,
    }) => {
      const listing = await seedAgentWithListing(data);
      const sharp = { propertyId: listing.propertyId, roomType: 'LIVING_ROOM' as const, width: 1536, height: 1024 };
      const staged = await seedOriginalPhoto(data, { ...sharp, fileName: 'living-room.jpg', isMain: true, displayOrder: 0 });
      await seedStagedVariant(data, { original: staged, canonicalStyle: 'MODERN', reviewStatus: 'APPROVED' });
      const kitchen = await seedOriginalPhoto(data, { ...sharp, fileName: 'kitchen.jpg', displayOrder: 1 });
      await seedStagedVariant(data, { original: kitchen, canonicalStyle: 'COASTAL', reviewStatus: 'PENDING_REVIEW' });
      await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'BEDROOM', fileName: 'tiny.jpg', displayOrder: 2 });

      const context = await browser.newContext({ baseURL: stack.webUrl, locale: texts.browserLocale, viewport: { width: viewport.width, height: viewport.height } });
      const page = await context.newPage();
      await signInQuickly(page, listing.agent);
      await page.goto(`/properties/${listing.propertyId}`);
      const panel = page.locator('#stage-panel');
      const estimate = panel.getByTestId('price-estimate');
      const alreadyStaged = panel.getByTestId('already-staged');

      // One move from the top of the page reaches the staging form, below every photo on a phone.
      await page.getByRole('link', { name: texts.toStagePanel, exact: true }).click();
      await expect(panel).toBeInViewport();
      // A variant waiting for review links there with a target a finger can hit (24 px or more).
      const waitingLink = page.getByRole('link', { name: texts.waitingForReview, exact: true });
      expect((await waitingLink.boundingBox())?.height).toBeGreaterThanOrEqual(24);

      await panel.getByRole('checkbox', { name: 'living-room.jpg' }).check();
      await panel.getByRole('checkbox', { name: 'kitchen.jpg' }).check();
      // No style yet: either photo may still be staged.
      await expect(estimate).toHaveText(texts.twoPhotos);
      await expect(alreadyStaged).toHaveCount(0);
      await panel.getByRole('radio', { name: texts.modern }).check();
      await expect(estimate).toHaveText(texts.onePhoto);
      await expect(alreadyStaged).toHaveText(texts.alreadyStaged);
      await estimate.scrollIntoViewIfNeeded();
      await saveScreenshot(page, `staging-estimate-${viewport.name}-${language}`, { fullPage: false });

      // A photo too small for the model says so as it is picked, and only then.
      const small = panel.getByTestId('stage-small-photo');
      await expect(small).toHaveText('');
      await panel.getByRole('checkbox', { name: 'tiny.jpg' }).check();
      await expect(small).toHaveText(texts.small);
      // kitchen.jpg and tiny.jpg will be staged; living-room.jpg still is not counted.
      await expect(estimate).toHaveText(texts.twoPhotos);
      await small.scrollIntoViewIfNeeded();
      await saveScreenshot(page, `staging-small-photo-${viewport.name}-${language}`, { fullPage: false });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      // Only the photo already staged: nothing to pay, and the submission agrees.
      await panel.getByRole('checkbox', { name: 'kitchen.jpg' }).uncheck();
      await panel.getByRole('checkbox', { name: 'tiny.jpg' }).uncheck();
      await expect(small).toHaveText('');
      await expect(estimate).toHaveText(texts.nothingToPay);
      await panel.getByRole('button', { name: texts.submit }).click();
      await expect(panel.getByTestId('stage-results').locator('li')).toHaveCount(1);
      await expect(panel.getByTestId('stage-results').locator('li')).toHaveAttribute('data-disposition', 'style_exists');
      await expect(panel.getByTestId('stage-results')).toContainText(texts.styleExists);
      await context.close();
    });
  }
}

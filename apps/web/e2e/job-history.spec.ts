import { seedAgentWithListing, seedOriginalPhoto, type E2eData } from '@staging/stack/e2e-fixtures';
import { expect, saveScreenshot, signInQuickly, stack, test } from './support/fixtures';
import { seedStagedJob } from './support/seed-jobs';

/** Two photos of one listing told apart by file name: one result published, one taken down. */
async function seedHistory(data: E2eData) {
  const listing = await seedAgentWithListing(data, { title: `History flat ${Date.now().toString(36)}` });
  const kitchen = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'KITCHEN', fileName: 'kitchen-north.jpg', isMain: true });
  const bedroom = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'BEDROOM', fileName: 'bedroom-east.jpg', wall: '#d8c4a8' });
  const staged = { reviewerId: listing.agent.id, costMicrousd: 42_000 };
  await seedStagedJob(data, { ...staged, original: kitchen, attempts: 1 });
  await seedStagedJob(data, { ...staged, original: bedroom, attempts: 2, takenDown: { reason: 'Rug hides the floor' } });
  return listing;
}

const TEXT = {
  en: { approved: 'Approved: published', takenDown: 'Taken down', reason: 'Reason: Rug hides the floor', view: 'View result', attempts: 'Attempt 2 of 2', close: 'Close' },
  es: {
    approved: 'Aprobado: publicado',
    takenDown: 'Retirado de la publicación',
    reason: 'Motivo: Rug hides the floor',
    view: 'Ver resultado',
    attempts: 'Intento 2 de 2',
    close: 'Cerrar',
  },
} as const;

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

for (const lang of ['en', 'es'] as const) {
  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    test(`history (${lang}, ${device}): photos by file name, a take-down reads as such, and a result opens in the app`, async ({ browser, data }) => {
      const text = TEXT[lang];
      const listing = await seedHistory(data);
      const context = await browser.newContext({ baseURL: stack.webUrl, locale: lang === 'en' ? 'en-US' : 'es-ES', viewport });
      const page = await context.newPage();
      await signInQuickly(page, listing.agent);
      await page.goto('/jobs');

      const jobs = page.getByTestId('job');
      await expect(jobs).toHaveCount(2);
      const kitchen = jobs.filter({ hasText: 'kitchen-north.jpg' });
      const bedroom = jobs.filter({ hasText: 'bedroom-east.jpg' });
      await expect(kitchen).toHaveCount(1);
      await expect(bedroom).toHaveCount(1);
      await expect(kitchen.getByRole('img', { name: 'kitchen-north.jpg: original' })).toBeVisible();
      await expect(kitchen.getByTestId('job-status')).toHaveText(text.approved);
      await expect(bedroom.getByTestId('job-status')).toHaveText(text.takenDown);
      await expect(bedroom).toContainText(text.reason);
      await expect(bedroom.getByTestId('job-attempt')).toHaveText(text.attempts);
      await expect(bedroom.getByTestId('job-cost')).toContainText(/0[.,]08/);
      await expect(bedroom.getByTestId('job-view-result')).toHaveCount(0);
      await saveScreenshot(page, `job-history-${lang}-${device}`);

      const view = kitchen.getByRole('button', { name: new RegExp(`^${text.view} kitchen-north\\.jpg`) });
      await view.click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await expect(page).toHaveURL(/\/jobs$/);
      await expect(dialog.getByRole('img')).toHaveCount(2);
      await expect(dialog.getByRole('button', { name: text.close })).toBeFocused();
      await saveScreenshot(page, `job-history-result-${lang}-${device}`, { fullPage: false });
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(view).toBeFocused();
      await context.close();
    });
  }
}

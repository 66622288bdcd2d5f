import type { Page } from '@playwright/test';
import { englishOnlyTexts } from './support/catalogue';
import { expect, saveScreenshot, signInQuickly, stack, test } from './support/fixtures';
import { agentPages, heading, publicPages, seedTourListing } from './support/page-tour';
import type { PageCheck } from './support/page-tour';

const ENGLISH = englishOnlyTexts();

/**
 * The English catalogue's own texts in what the page shows or announces: the visible text, the
 * title, and the accessible names and alt texts screen readers read.
 */
async function englishOn(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => {
    const attributes = [...document.body.querySelectorAll('[aria-label], [alt], [title], [aria-valuetext]')].flatMap((element) =>
      ['aria-label', 'alt', 'title', 'aria-valuetext'].map((name) => element.getAttribute(name) ?? ''),
    );
    return [document.title, document.body.innerText, ...attributes].join('\n');
  });
  return ENGLISH.filter((english) => text.includes(english));
}

/** `<html lang="es">` and no English catalogue text on the page. */
async function expectSpanish(page: Page, target: PageCheck): Promise<void> {
  await expect(page.locator('html'), target.name).toHaveAttribute('lang', 'es');
  expect(await englishOn(page), `English text on ${target.name}`).toEqual([]);
}

test('every page in Spanish from Accept-Language: html lang, no English catalogue text, Spanish plurals', async ({ browser, data }) => {
  // Ten pages with their data on a busy 2-core machine: a hang guard, not a speed check.
  test.setTimeout(300_000);
  expect(ENGLISH.length, 'English-only catalogue texts to look for').toBeGreaterThan(200);
  const listing = await seedTourListing(data, { title: `Casa ${Date.now().toString(36)}`, secondRoom: 'BEDROOM', unitName: 'Edificio A', items: 3 });
  // A zone far from the server's, so the job times show whose clock they follow.
  const timezoneId = 'America/Mexico_City';
  const context = await browser.newContext({ baseURL: stack.webUrl, locale: 'es-ES', timezoneId });
  const page = await context.newPage();
  const check = async (target: PageCheck) => {
    await page.goto(target.path);
    await target.ready(page);
    await expectSpanish(page, target);
    await saveScreenshot(page, `es-${target.name}`);
  };

  for (const target of publicPages(listing.propertyId, 'casa')) await check(target);
  // The plural rules are the library's: one bathroom, "1 baño".
  await page.goto(`/listings/${listing.propertyId}`);
  await expect(page.getByText('1 baño', { exact: true })).toBeVisible();
  await expect(page.getByText('2 dormitorios', { exact: true })).toBeVisible();

  await signInQuickly(page, listing.agent);
  for (const target of agentPages(listing.propertyId, 3)) await check(target);

  // Confirmations too: the reject dialog of the review queue and the delete dialog of a photo.
  await page.goto('/review');
  await page.getByTestId('review-item').getByRole('button', { name: /^Rechazar/ }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectSpanish(page, { name: 'reject dialog', path: '/review', ready: heading });
  await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click();
  await page.goto(`/properties/${listing.propertyId}`);
  await page.getByTestId('original-card').first().getByRole('button', { name: /^Eliminar/ }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectSpanish(page, { name: 'delete photo dialog', path: '/properties', ready: heading });
  await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click();

  await page.goto('/jobs');
  const job = page.getByTestId('job');
  await expect(job.getByTestId('job-attempt')).toHaveText('Intento 2 de 2');
  await expect(job.getByTestId('job-cost')).toHaveText(/^Coste estimado: 0,08\sUS\$$/);
  // Timestamps in the agent's time zone (the browser's), not the server's.
  const finished = job.locator('time').nth(1);
  const finishedAt = new Date((await finished.getAttribute('datetime'))!);
  const clock = new Intl.DateTimeFormat('es', { hour: 'numeric', minute: '2-digit', hourCycle: 'h23', timeZone: timezoneId }).format(finishedAt);
  await expect(finished).toHaveText(new RegExp(`^Terminado: .* ${clock}$`));
  await context.close();
});

test('the switcher overrides Accept-Language, and the English check sees English when it is there', async ({ browser, data }) => {
  const listing = await seedTourListing(data, { title: `Casa ${Date.now().toString(36)}`, secondRoom: 'BEDROOM', unitName: 'Edificio A', items: 3 });
  const context = await browser.newContext({ baseURL: stack.webUrl, locale: 'en-US' });
  const page = await context.newPage();
  await signInQuickly(page, listing.agent);
  await page.goto('/properties');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your properties');
  // The check used on Spanish pages does see English when it is there.
  await page.getByTestId('property-card').waitFor();
  expect(await englishOn(page)).toEqual(expect.arrayContaining(['Your properties', 'Listings dashboard', 'Sign out']));

  // Back on the same page, now in Spanish (language.spec.ts follows the choice through sign-in and sign-out).
  await page.getByTestId('locale-switcher').getByRole('button', { name: 'Español' }).click();
  await expect(page).toHaveURL(/\/properties$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sus inmuebles');
  await expect(page.getByTestId('locale-switcher').getByRole('button', { name: 'Español' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('property-card').waitFor();
  await expectSpanish(page, { name: 'properties after switching', path: '/properties', ready: heading });
  await saveScreenshot(page, 'es-properties-after-switching');
  await context.close();
});

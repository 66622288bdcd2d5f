import type { Page } from '@playwright/test';
import { seedAgentWithListing, seedOriginalPhoto, seedStagedVariant, seedUnitWithItems, type E2eData } from '../../../tools/stack/src/e2e-fixtures';
import { englishOnlyTexts } from './support/catalogue';
import { expect, saveScreenshot, signInQuickly, stack, test } from './support/fixtures';
import { seedFinishedJob } from './support/seed-jobs';

/** A listing (1 bathroom) with photos, a pending and an approved variant, a failed job and inventory. */
async function seedListing(data: E2eData) {
  const listing = await seedAgentWithListing(data, { title: `Casa ${Date.now().toString(36)}` });
  const living = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'LIVING_ROOM', isMain: true, displayOrder: 0 });
  const bedroom = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'BEDROOM', displayOrder: 1 });
  await seedStagedVariant(data, { original: living, canonicalStyle: 'COASTAL', reviewStatus: 'APPROVED', reviewedByUserId: listing.agent.id });
  await seedStagedVariant(data, { original: bedroom, canonicalStyle: 'FARMHOUSE' });
  await seedUnitWithItems(data, { propertyId: listing.propertyId, name: 'Edificio A', count: 3 });
  await seedFinishedJob(data, { propertyId: listing.propertyId, originalImageId: living.id, status: 'FAILED', errorCode: 'ATTEMPTS_EXHAUSTED', attempts: 2, costMicrousd: 42_000 });
  return listing;
}

interface PageCheck {
  name: string;
  path: string;
  /** Waits until the page shows its data, so the text checked is what a visitor reads. */
  ready: (page: Page) => Promise<void>;
}

const heading = (page: Page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible();

function publicPages(propertyId: string): PageCheck[] {
  return [
    { name: 'sign-in', path: '/sign-in', ready: heading },
    { name: 'public-listing', path: `/listings/${propertyId}`, ready: (page) => expect(page.getByTestId('staged-photo')).toHaveCount(1) },
    { name: 'public-search', path: '/search?q=casa', ready: heading },
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
    { name: 'inventory', path: `/properties/${propertyId}/inventory`, ready: (page) => expect(page.getByTestId('inventory-row')).toHaveCount(3) },
    { name: 'history', path: '/jobs', ready: (page) => expect(page.getByTestId('job')).toHaveCount(1) },
    { name: 'spend', path: '/spend', ready: (page) => expect(page.getByTestId('spend-row')).toHaveCount(1) },
  ];
}

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
  const listing = await seedListing(data);
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

  for (const target of publicPages(listing.propertyId)) await check(target);
  // The plural rules are the library's: one bathroom, "1 baño".
  await page.goto(`/listings/${listing.propertyId}`);
  await expect(page.getByText('1 baño', { exact: true })).toBeVisible();
  await expect(page.getByText('2 dormitorios', { exact: true })).toBeVisible();

  await signInQuickly(page, listing.agent);
  for (const target of agentPages(listing.propertyId)) await check(target);

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

test('the switcher overrides Accept-Language and is remembered for the agent across sign-ins', async ({ browser, data }) => {
  const listing = await seedListing(data);
  const context = await browser.newContext({ baseURL: stack.webUrl, locale: 'en-US' });
  const page = await context.newPage();
  await signInQuickly(page, listing.agent);
  await page.goto('/properties');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your properties');
  // The check used on Spanish pages does see English when it is there.
  await page.getByTestId('property-card').waitFor();
  expect(await englishOn(page)).toEqual(expect.arrayContaining(['Your properties', 'Listings dashboard', 'Sign out']));

  // Back on the same page, now in Spanish.
  await page.getByTestId('locale-switcher').getByRole('button', { name: 'Español' }).click();
  await expect(page).toHaveURL(/\/properties$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sus inmuebles');
  await expect(page.getByTestId('locale-switcher').getByRole('button', { name: 'Español' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('property-card').waitFor();
  await expectSpanish(page, { name: 'properties after switching', path: '/properties', ready: heading });

  // Signing out forgets the pick in this browser: the sign-in page follows Accept-Language again.
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  // Signing in restores it from the agent's account.
  await page.getByLabel('Email').fill(listing.agent.email);
  await page.getByLabel('Password').fill(listing.agent.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/properties$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sus inmuebles');
  await saveScreenshot(page, 'es-properties-after-sign-in');
  await context.close();
});

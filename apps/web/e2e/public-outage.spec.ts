import type { Page } from '@playwright/test';
import { seedAgentWithListing } from '@staging/stack/e2e-fixtures';
import { expect, saveScreenshot, stack, test } from './support/fixtures';

// The stack's outage instance runs the same build with its database and Redis out of reach: what a
// visitor and an agent see while either is down. The texts are the catalogues' (messages/*.json).
const CASES = [
  {
    locale: 'en-US',
    searchHomes: 'Search homes',
    pageTitle: 'Something went wrong',
    pageBody: 'This page could not be shown. Please try again in a moment.',
    tryAgain: 'Try again',
    searchUnavailable: 'Search is briefly unavailable. Try again in a moment.',
    searchBox: 'City, street or keyword',
    email: 'Email',
    password: 'Password',
    signIn: 'Sign in',
    signInUnavailable: 'Signing in is not possible right now. Please try again in a moment.',
  },
  {
    locale: 'es-ES',
    searchHomes: 'Buscar viviendas',
    pageTitle: 'Algo salió mal',
    pageBody: 'No se pudo mostrar esta página. Vuelva a intentarlo en un momento.',
    tryAgain: 'Reintentar',
    searchUnavailable: 'La búsqueda no está disponible por un momento. Vuelve a intentarlo en unos instantes.',
    searchBox: 'Ciudad, calle o palabra clave',
    email: 'Correo electrónico',
    password: 'Contraseña',
    signIn: 'Entrar',
    signInUnavailable: 'Ahora mismo no se puede iniciar sesión. Vuelva a intentarlo en un momento.',
  },
] as const;

/** The page's own alert; Next's route announcer is an (empty) alert of its own outside `main`. */
const alertIn = (page: Page) => page.getByRole('main').getByRole('alert');

for (const c of CASES) {
  test(`database and Redis down: public pages and sign-in say so in the visitor's language (${c.locale})`, async ({ browser, data }) => {
    const { agent, propertyId } = await seedAgentWithListing(data);
    const context = await browser.newContext({ baseURL: stack.outageWebUrl, locale: c.locale });
    const page = await context.newPage();

    // A listing: the public group's error boundary, inside the site's header, not Next's bare page.
    const listing = await page.goto(`/listings/${propertyId}`);
    expect(listing?.status(), 'an outage is not a page a CDN may keep').toBe(500);
    expect(listing?.headers()['cache-control']).toContain('no-store');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(c.pageTitle);
    await expect(alertIn(page)).toHaveText(c.pageBody);
    await expect(page.getByRole('button', { name: c.tryAgain })).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: c.searchHomes })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', c.locale.slice(0, 2));
    await saveScreenshot(page, `outage-listing-${c.locale}`);
    // Retrying while the outage lasts shows the same page again, not a blank one.
    await page.getByRole('button', { name: c.tryAgain }).click();
    await expect(alertIn(page)).toHaveText(c.pageBody);

    // Search keeps its form and says why there are no results.
    await page.goto('/search?q=lisbon');
    await expect(alertIn(page)).toHaveText(c.searchUnavailable);
    await expect(page.getByRole('searchbox', { name: c.searchBox })).toHaveValue('lisbon');
    await saveScreenshot(page, `outage-search-${c.locale}`);

    // Signing in: a sentence on the form, not an error page, and the form stays filled in.
    await page.goto('/sign-in');
    await page.getByLabel(c.email).fill(agent.email);
    await page.getByLabel(c.password).fill(agent.password);
    await page.getByRole('button', { name: c.signIn }).click();
    await expect(alertIn(page)).toHaveText(c.signInUnavailable);
    await expect(page.getByLabel(c.email)).toHaveValue(agent.email);
    await saveScreenshot(page, `outage-sign-in-${c.locale}`);
    await context.close();
  });
}

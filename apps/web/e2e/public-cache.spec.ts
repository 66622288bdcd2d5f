import type { APIRequestContext, APIResponse, Browser } from '@playwright/test';
import { PUBLIC_PAGE_CACHE_CONTROL } from '@staging/http-edge/public-cache';
import { seedAgentWithListing, seedOriginalPhoto, seedStagedVariant, type E2eData } from '@staging/stack/e2e-fixtures';
import { expect, saveScreenshot, signInQuickly, stack, test } from './support/fixtures';

// The public listing and search pages as a CDN in front of the web would see them
// (docs/decisions/public-pages.md "Public pages a CDN can keep"): cacheable answers with an ETag,
// one page per language, and regenerated when the listing changes, whichever process made the change.

/** Bound on waiting for a change to reach a cached page: the event arrives in well under a second. */
const REGENERATED_WITHIN_MS = 30_000;

async function visitor(browser: Browser, locale = 'en-US'): Promise<APIRequestContext> {
  return (await browser.newContext({ baseURL: stack.webUrl, locale })).request;
}

async function seedListingWithApprovedVariant(data: E2eData) {
  const city = `Cacheville${Date.now().toString(36)}`;
  const listing = await seedAgentWithListing(data, { title: `Cached flat ${Date.now().toString(36)}`, city });
  const living = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'LIVING_ROOM', isMain: true, displayOrder: 0 });
  const bedroom = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'BEDROOM', displayOrder: 1, wall: '#c9d6df' });
  const variant = await seedStagedVariant(data, { original: living, canonicalStyle: 'COASTAL', reviewStatus: 'APPROVED', reviewedByUserId: listing.agent.id });
  return { ...listing, city, living, bedroom, variant };
}

/** What a shared cache must see on a public page: may keep it, for a bounded time, and can revalidate it. */
function expectCacheable(response: APIResponse, what: string): string {
  expect(response.status(), what).toBe(200);
  const headers = response.headers();
  expect(headers['cache-control'], what).toBe(PUBLIC_PAGE_CACHE_CONTROL);
  expect(headers['cache-control'], what).toMatch(/^public, s-maxage=\d+, stale-while-revalidate=\d+$/);
  expect(headers.etag, what).toMatch(/^(W\/)?"[^"]+"$/);
  // No nonce: the same bytes are served to everyone, so their scripts are allowed by origin.
  expect(headers['content-security-policy'], what).toContain("script-src 'self' 'unsafe-inline';");
  expect(headers['content-security-policy'], what).not.toContain('nonce-');
  expect(headers['set-cookie'], what).toBeUndefined();
  return headers.etag!;
}

/** Asks for `path` again with `etag`; a 304 must come without a body. */
async function revalidate(request: APIRequestContext, path: string, etag: string): Promise<APIResponse> {
  const revalidation = await request.get(path, { headers: { 'if-none-match': etag } });
  if (revalidation.status() === 304) expect(await revalidation.body(), `${path}: a 304 with a body`).toHaveLength(0);
  return revalidation;
}

/** Asks for `path` until its ETag is no longer `etag` (the page was regenerated), then returns the new answer's HTML. */
async function regenerated(request: APIRequestContext, path: string, etag: string): Promise<string> {
  let html = '';
  await expect
    .poll(
      async () => {
        const response = await request.get(path);
        html = await response.text();
        return response.headers().etag;
      },
      { timeout: REGENERATED_WITHIN_MS, message: `${path} regenerated after the change` },
    )
    .not.toBe(etag);
  return html;
}

/** Tries of the unfiltered search page: each lost only when another test changes a public listing mid-try. */
const SHARED_PAGE_TRIES = 5;

/**
 * The same checks for a page other tests change too: the unfiltered search lists every test's
 * listings, and the tests run in parallel, so it may be regenerated between two requests. A new
 * ETag then is the page doing its job, and the checks start again; a 200 carrying the very ETag
 * that was sent, or an ETag that differs on every try, still fails.
 */
async function expectStableWhileUnchanged(request: APIRequestContext, path: string): Promise<void> {
  const seen: string[] = [];
  for (let attempt = 1; attempt <= SHARED_PAGE_TRIES; attempt += 1) {
    const etag = expectCacheable(await request.get(path), path);
    const again = expectCacheable(await request.get(path), `${path}, served again`);
    const revalidation = await revalidate(request, path, again);
    if (revalidation.status() === 304) {
      if (again === etag) return;
    } else {
      expect(revalidation.headers().etag, `${path} answered 200 to its own ETag`).not.toBe(again);
    }
    seen.push(`${etag} → ${again} → ${revalidation.status()} ${revalidation.headers().etag}`);
  }
  throw new Error(`${path} never stayed unchanged over three requests in ${SHARED_PAGE_TRIES} tries:\n${seen.join('\n')}`);
}

test('listing and search pages: the same ETag twice, 304 on revalidation, and a shared cache may keep them', async ({ browser, data }) => {
  const { propertyId, title, city } = await seedListingWithApprovedVariant(data);
  const request = await visitor(browser);

  const listingPath = `/listings/${propertyId}`;
  const first = await request.get(listingPath);
  const etag = expectCacheable(first, 'listing page');
  expect(await first.text()).toContain(title);
  const second = await request.get(listingPath);
  expect(expectCacheable(second, 'listing page, served again')).toBe(etag);
  expect(await second.text()).toBe(await first.text());
  expect((await revalidate(request, listingPath, etag)).status(), `${listingPath} revalidated with its ETag`).toBe(304);
  // The language is picked from the request, so a shared cache must tell requests apart by both.
  expect(first.headers().vary).toMatch(/accept-language/i);
  expect(first.headers().vary).toMatch(/cookie/i);

  await expectStableWhileUnchanged(request, `/search?q=${encodeURIComponent(city.toLowerCase())}`);
  await expectStableWhileUnchanged(request, '/search');
});

test('a Spanish and an English visitor each get their own language from the same URL', async ({ browser, data }) => {
  const { propertyId } = await seedListingWithApprovedVariant(data);
  const request = await visitor(browser);
  const path = `/listings/${propertyId}`;
  const lang = async (headers: Record<string, string>) => {
    const response = await request.get(path, { headers });
    expectCacheable(response, `${path} for ${JSON.stringify(headers)}`);
    return { lang: /<html lang="(\w+)"/.exec(await response.text())?.[1], etag: response.headers().etag };
  };
  // Alternating, so that a page cached for the one would be found by the other.
  const spanish = await lang({ 'accept-language': 'es-ES,es;q=0.9' });
  const english = await lang({ 'accept-language': 'en-US,en;q=0.9' });
  expect(spanish.lang).toBe('es');
  expect(english.lang).toBe('en');
  expect(spanish.etag).not.toBe(english.etag);
  expect(await lang({ 'accept-language': 'es' })).toEqual(spanish);
  expect(await lang({ 'accept-language': 'en' })).toEqual(english);
  // The switcher's cookie outranks the browser's language, as on every other page.
  expect(await lang({ 'accept-language': 'en-US', cookie: 'locale=es' })).toEqual(spanish);
  // And a Spanish visitor's ETag is no match for the English page.
  const revalidation = await request.get(path, { headers: { 'accept-language': 'en', 'if-none-match': spanish.etag! } });
  expect(revalidation.status()).toBe(200);

  // A browser in Spanish sees the whole page in Spanish, switcher included.
  const page = await (await browser.newContext({ baseURL: stack.webUrl, locale: 'es-ES' })).newPage();
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Buscar viviendas' })).toBeVisible();
  await expect(page.getByTestId('staged-photo')).toHaveCount(1);
  await saveScreenshot(page, 'public-cache-listing-es');
  // Switching to English comes back to the same listing, now in English.
  await page.getByTestId('locale-switcher').getByRole('button', { name: 'English' }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Search homes' })).toBeVisible();
  await page.context().close();
});

test('agent pages keep a nonce of their own per request and are never stored', async ({ page, data }) => {
  const { agent, propertyId } = await seedAgentWithListing(data);
  await signInQuickly(page, agent);
  const nonces: string[] = [];
  for (const path of ['/properties', `/properties/${propertyId}`, '/properties']) {
    const response = await page.request.get(path);
    expect(response.status(), path).toBe(200);
    expect(response.headers()['cache-control'], path).toContain('no-store');
    expect(response.headers()['cache-control'], path).toContain('private');
    const policy = response.headers()['content-security-policy'] ?? '';
    expect(policy, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(policy, path).not.toContain('unsafe-inline;');
    nonces.push(/'nonce-([^']+)'/.exec(policy)![1]!);
  }
  expect(new Set(nonces).size).toBe(nonces.length);
});

test('a take-down leaves the cached listing page once it is regenerated, and the image URL answers 404', async ({ browser, data }) => {
  const { agent, propertyId, variant } = await seedListingWithApprovedVariant(data);
  const request = await visitor(browser);
  const path = `/listings/${propertyId}`;
  const before = await request.get(path);
  const etag = expectCacheable(before, 'listing page with the approved variant');
  expect(await before.text()).toContain(variant.id);
  expect(expectCacheable(await request.get(path), 'listing page, cached')).toBe(etag);

  // The agent takes the published variant down (a rejection of an approved variant) from the dashboard's API.
  const agentContext = await browser.newContext({ baseURL: stack.webUrl });
  const agentPage = await agentContext.newPage();
  await signInQuickly(agentPage, agent);
  const takeDown = await agentPage.request.post('/api/trpc/ai.rejectStagedVariant', {
    data: { imageId: variant.id, reason: 'Wrong furniture' },
    headers: { origin: stack.webUrl },
  });
  expect(takeDown.status(), await takeDown.text()).toBe(200);
  await agentContext.close();

  const after = await regenerated(request, path, etag);
  expect(after).not.toContain(variant.id);
  expectCacheable(await request.get(path), 'listing page without the variant');
  for (const imagePath of [`/api/public/images/${variant.id}/content`, `/api/public/images/${variant.id}/derivatives/display`]) {
    expect((await request.get(imagePath)).status(), imagePath).toBe(404);
  }

  const page = await (await browser.newContext({ baseURL: stack.webUrl })).newPage();
  await page.goto(path);
  await expect(page.getByTestId('original-photo')).toHaveCount(2);
  await expect(page.getByTestId('staged-photo')).toHaveCount(0);
  await saveScreenshot(page, 'public-cache-after-take-down');
  await page.context().close();
});

test('a photo deleted through the api leaves the cached listing and search pages', async ({ browser, data }) => {
  const { agent, propertyId, title, city, bedroom } = await seedListingWithApprovedVariant(data);
  const request = await visitor(browser);
  const listingPath = `/listings/${propertyId}`;
  const searchPath = `/search?q=${encodeURIComponent(city.toLowerCase())}`;
  const listingEtag = expectCacheable(await request.get(listingPath), 'listing page');
  // Seeded straight into the database: no search document yet, so the cached search finds nothing.
  const search = await request.get(searchPath);
  const searchEtag = expectCacheable(search, 'search page');
  expect(await search.text()).not.toContain(title);

  // Deleted by the api (the web forwards the request), which rebuilds the search document; the
  // web hears of the rebuild and expires both pages.
  const agentContext = await browser.newContext({ baseURL: stack.webUrl });
  const agentPage = await agentContext.newPage();
  await signInQuickly(agentPage, agent);
  const deletion = await agentPage.request.delete(`/api/property-images/${bedroom.id}`, { headers: { origin: stack.webUrl } });
  expect(deletion.status(), await deletion.text()).toBe(204);
  await agentContext.close();

  expect(await regenerated(request, listingPath, listingEtag)).not.toContain(bedroom.id);
  expect(await regenerated(request, searchPath, searchEtag)).toContain(title);
});

import type { Page } from '@playwright/test';
import { seedAgentWithListing, seedOriginalPhoto, type E2eData } from '@staging/stack/e2e-fixtures';
import { expectNoSeriousViolations } from './support/axe';
import { expect, saveScreenshot, signInQuickly, stack, test } from './support/fixtures';
import { seedFinishedJob } from './support/seed-jobs';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 720 };

/** `<name>.png` at the desktop size and `<name>-phone.png` at 390×844. */
async function saveDesktopAndPhone(page: Page, name: string): Promise<void> {
  await saveScreenshot(page, name);
  await page.setViewportSize(PHONE);
  await saveScreenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

/** A listing with a photo and two failed jobs: one unconfirmed purchase, then two bought attempts ($0.042 each). */
async function seedListingWithFailedJobs(data: E2eData) {
  const listing = await seedAgentWithListing(data, { title: `Spend flat ${Date.now().toString(36)}` });
  const original = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'LIVING_ROOM', isMain: true });
  const job = { propertyId: listing.propertyId, originalImageId: original.id, status: 'FAILED', costMicrousd: 42_000 } as const;
  await seedFinishedJob(data, { ...job, errorCode: 'PURCHASE_UNCONFIRMED', attempts: 1 });
  await seedFinishedJob(data, { ...job, errorCode: 'ATTEMPTS_EXHAUSTED', attempts: 2 });
  return listing;
}

test('opened on 127.0.0.1 the dashboard loads; /login leads to sign-in', async ({ page, data }) => {
  expect(new URL(stack.webUrl).hostname).toBe('127.0.0.1');
  const login = await page.request.get(`${stack.webUrl}/login?next=/review`, { maxRedirects: 0 });
  expect([307, 308]).toContain(login.status());
  expect(login.headers().location).toBe('/sign-in?next=%2Freview');
  await page.goto('/login');
  await expect(page).toHaveURL(`${stack.webUrl}/sign-in`);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();

  const listing = await seedAgentWithListing(data);
  await signInQuickly(page, listing.agent);
  await page.goto('/properties');
  await expect(page.getByTestId('property-card')).toHaveCount(1);
  await expect(page.getByTestId('query-loading')).toHaveCount(0);
});

test('a failed API call shows the error state, and retry recovers', async ({ page, data }) => {
  const listing = await seedAgentWithListing(data);
  await signInQuickly(page, listing.agent);
  let failing = true;
  await page.route('**/api/trpc/**', async (route) => {
    if (failing && route.request().url().includes('property.list')) return route.fulfill({ status: 503, body: 'unavailable' });
    return route.fallback();
  });
  await page.goto('/properties');
  const error = page.getByTestId('query-error');
  // React Query retries a 5xx twice before giving up; then the page says so and offers a retry.
  await expect(error).toBeVisible({ timeout: 60_000 });
  await expect(error.getByRole('button', { name: 'Try again' })).toBeVisible();
  await saveScreenshot(page, 'properties-error');
  failing = false;
  await error.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('property-card')).toHaveCount(1);
  await expect(error).toHaveCount(0);
});

test('the price before staging, and failure reasons, attempts and cost in the property history', async ({ page, data }) => {
  const listing = await seedListingWithFailedJobs(data);
  await signInQuickly(page, listing.agent);

  await page.goto(`/properties/${listing.propertyId}`);
  await expect(page.getByTestId('price-estimate')).toHaveText(/^Estimated price: \$0\.04 per photo \(up to \$0\.08 if a retry is needed\)/);
  await page.getByRole('checkbox', { name: 'Photo 1', exact: true }).check();
  await expect(page.getByTestId('price-estimate')).toContainText('Estimated price: $0.04 for 1 photo');
  const jobs = page.getByTestId('job');
  await expect(jobs).toHaveCount(2);
  await expect(jobs.nth(0).getByTestId('job-reason')).toHaveText('Why: Both attempts failed. Nothing more will be bought for this job; you may submit again.');
  await expect(jobs.nth(0).getByTestId('job-attempt')).toHaveText('Attempt 2 of 2');
  await expect(jobs.nth(0).getByTestId('job-cost')).toHaveText('Cost estimate: $0.08');
  await expect(jobs.nth(0).getByTestId('job-elapsed')).toHaveText('1 min 35 s');
  await expect(jobs.nth(1).getByTestId('job-reason')).toContainText('could not confirm whether the image was bought');
  await expect(jobs.nth(1).locator('time')).toHaveCount(2);
  await expectNoSeriousViolations(page, 'property with history');
  await saveDesktopAndPhone(page, 'property-history');
});

test('history across properties and the spend, labelled as estimates', async ({ page, data }) => {
  const listing = await seedListingWithFailedJobs(data);
  await signInQuickly(page, listing.agent);

  await page.goto('/jobs');
  await expect(page.getByTestId('job')).toHaveCount(2);
  await expect(page.getByTestId('job').first().getByRole('link', { name: listing.title })).toBeVisible();
  await expectNoSeriousViolations(page, 'history');
  await saveDesktopAndPhone(page, 'history');

  await page.goto('/spend');
  const month = new Date().toISOString().slice(0, 7);
  const row = page.locator(`[data-testid="spend-month"][data-month="${month}"] [data-testid="spend-row"]`);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(listing.title);
  await expect(row).toContainText('3');
  await expect(row).toContainText('≈ $0.13');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Staging spend (estimates)');
  await expectNoSeriousViolations(page, 'spend');
  await saveDesktopAndPhone(page, 'spend');
});

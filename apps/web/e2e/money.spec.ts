import type { Browser, Page } from '@playwright/test';
import { openE2eData, seedAgentWithListing, seedOriginalPhoto, type E2eData } from '@staging/stack/e2e-fixtures';
import { expect, saveScreenshot, secrets, signInQuickly, stack, test, VIEWPORTS } from './support/fixtures';
import { seedFinishedJob } from './support/seed-jobs';

// The main web instance prices the medium quality at 42 000 micro-US-dollars; the paused one has
// no price (tools/stack/src/e2e-stack.ts). Jobs are seeded as the worker leaves them, priced or
// not, so nothing is bought here.

const TEXTS = {
  en: {
    browserLocale: 'en-US',
    perPhoto: /^Estimated price: \$0\.04 per photo \(up to \$0\.08 if a retry is needed\)/,
    onePhoto: /^Estimated price: \$0\.04 for 1 photo/,
    unset: /^Estimated price: not priced \(no price is configured for this quality\)\./,
    jobCost: 'Cost estimate: $0.04',
    jobNoCost: 'Cost estimate: not priced',
    spendMixed: /^≈ \$0\.04 \(\+1 not priced\)$/,
    notPriced: 'not priced',
  },
  es: {
    browserLocale: 'es-ES',
    perPhoto: /^Precio estimado: 0,04\sUS\$ por foto \(hasta 0,08\sUS\$ si hace falta reintentar\)/,
    onePhoto: /^Precio estimado: 0,04\sUS\$ por 1 foto/,
    unset: /^Precio estimado: sin precio \(no hay un precio configurado para esta calidad\)\./,
    jobCost: /^Coste estimado: 0,04\sUS\$$/,
    jobNoCost: 'Coste estimado: sin precio',
    spendMixed: /^≈ 0,04\sUS\$ \(\+1 sin precio\)$/,
    notPriced: 'sin precio',
  },
} as const;

type Language = keyof typeof TEXTS;

/** Runs `check` at each viewport and keeps a screenshot of each, `money-<language>-<name>-<viewport>.png`. */
async function atEachViewport(page: Page, name: string, check: () => Promise<void>): Promise<void> {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await check();
    await saveScreenshot(page, `${name}-${viewport.name}`);
  }
}

async function signedInPage(browser: Browser, language: Language, agent: Parameters<typeof signInQuickly>[1], baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: TEXTS[language].browserLocale });
  const page = await context.newPage();
  await signInQuickly(page, agent, baseURL);
  return page;
}

/** A listing with a photo, one job bought at 42 000 micro-US-dollars and one bought without a price. */
async function seedMixedListing(data: E2eData) {
  const listing = await seedAgentWithListing(data, { title: `Money flat ${Date.now().toString(36)}` });
  const original = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'LIVING_ROOM', isMain: true });
  const job = { propertyId: listing.propertyId, originalImageId: original.id, status: 'FAILED', errorCode: 'ATTEMPTS_EXHAUSTED', attempts: 1 } as const;
  const pricedJobId = await seedFinishedJob(data, { ...job, costMicrousd: 42_000 });
  const unpricedJobId = await seedFinishedJob(data, { ...job, costMicrousd: null });
  return { ...listing, pricedJobId, unpricedJobId };
}

const thisMonth = () => new Date().toISOString().slice(0, 7);

for (const language of ['en', 'es'] as const) {
  const texts = TEXTS[language];

  test(`${language}: the estimate before staging, per job and in the spend, with a price configured`, async ({ browser, data }) => {
    const listing = await seedMixedListing(data);
    const page = await signedInPage(browser, language, listing.agent, stack.webUrl);

    await page.goto(`/properties/${listing.propertyId}`);
    const estimate = page.getByTestId('price-estimate');
    await expect(estimate).toHaveText(texts.perPhoto);
    await page.locator('#stage-panel input[type="checkbox"]').first().check();
    await expect(estimate).toContainText(texts.onePhoto);
    await expect(page.locator(`[data-testid="job"][data-job-id="${listing.pricedJobId}"] [data-testid="job-cost"]`)).toHaveText(texts.jobCost);
    await expect(page.locator(`[data-testid="job"][data-job-id="${listing.unpricedJobId}"] [data-testid="job-cost"]`)).toHaveText(texts.jobNoCost);
    await atEachViewport(page, `money-${language}-property`, async () => {
      await expect(estimate).toBeVisible();
    });

    await page.goto('/spend');
    const row = page.locator(`[data-testid="spend-month"][data-month="${thisMonth()}"] [data-testid="spend-row"]`);
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('spend-estimate')).toHaveText(texts.spendMixed);
    await atEachViewport(page, `money-${language}-spend-mixed`, async () => {
      await expect(row.getByTestId('spend-estimate')).toBeVisible();
    });
  });

  test(`${language}: "not priced", never $0.00, where no price is configured`, async ({ browser, data }) => {
    // Spend and job: attempts recorded without a price, on the priced instance (prices are read per attempt).
    const listing = await seedAgentWithListing(data, { title: `Unpriced flat ${Date.now().toString(36)}` });
    const original = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'BEDROOM', isMain: true });
    const jobId = await seedFinishedJob(data, {
      propertyId: listing.propertyId,
      originalImageId: original.id,
      status: 'FAILED',
      errorCode: 'ATTEMPTS_EXHAUSTED',
      attempts: 2,
      costMicrousd: null,
    });
    const page = await signedInPage(browser, language, listing.agent, stack.webUrl);
    await page.goto('/jobs');
    await expect(page.locator(`[data-testid="job"][data-job-id="${jobId}"] [data-testid="job-cost"]`)).toHaveText(texts.jobNoCost);
    await page.goto('/spend');
    const month = page.locator(`[data-testid="spend-month"][data-month="${thisMonth()}"]`);
    await expect(month.getByTestId('spend-row')).toHaveCount(1);
    await expect(month.getByTestId('spend-estimate')).toHaveText([texts.notPriced, texts.notPriced]);
    await expect(month).not.toContainText(/0[.,]00/);
    await atEachViewport(page, `money-${language}-spend-unpriced`, async () => {
      await expect(month.getByTestId('spend-row')).toBeVisible();
    });

    // Before staging: the paused instance runs without a price.
    const paused = openE2eData(stack, secrets.S3_SECRET_ACCESS_KEY, stack.paused.databaseUrl);
    try {
      const pausedListing = await seedAgentWithListing(paused);
      await seedOriginalPhoto(paused, { propertyId: pausedListing.propertyId, roomType: 'OFFICE', isMain: true });
      const pausedPage = await signedInPage(browser, language, pausedListing.agent, stack.paused.webUrl);
      await pausedPage.goto(`/properties/${pausedListing.propertyId}`);
      const estimate = pausedPage.getByTestId('price-estimate');
      await expect(estimate).toHaveText(texts.unset);
      await pausedPage.locator('#stage-panel input[type="checkbox"]').first().check();
      await expect(estimate).toHaveText(texts.unset);
      await atEachViewport(pausedPage, `money-${language}-stage-unpriced`, async () => {
        await expect(estimate).toBeVisible();
      });
    } finally {
      await paused.close();
    }
  });
}

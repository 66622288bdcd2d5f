import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { createProviderAttempt } from '@staging/db/testing/factories';
import { openE2eData, seedAgentWithListing, seedOriginalPhoto, seedStagedVariant, type E2eData } from '@staging/stack/e2e-fixtures';
import { expect, saveScreenshot, secrets, signInQuickly, stack, test } from './support/fixtures';

// An agent submits a staging job and keeps working on three pages of the dashboard (the property,
// the review queue, the job history) while the job runs. Each page must follow the job without a
// reload and without taking the agent's focus.
//
// The pages run against the paused world (its worker buys nothing), so these tests never create
// predictions that the staging tests count or script; the worker's later steps are written here as
// the worker writes them, and the database announces them like any other write. On the push-only
// web instance the pages poll once an hour: a change they show within the waits below came over
// the live stream, so a broken stream fails these tests.

type Locale = 'en' | 'es';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 720 };

const catalogues = Object.fromEntries(
  (['en', 'es'] as const).map((locale) => [locale, JSON.parse(readFileSync(new URL(`../messages/${locale}.json`, import.meta.url), 'utf8'))]),
) as Record<Locale, { jobs: Record<string, string> }>;

/** A job status as the job list words it in `locale`. */
const outcome = (locale: Locale, name: string) => catalogues[locale].jobs[`outcome${name}`]!;

interface Scene {
  data: E2eData;
  propertyId: string;
  originalId: string;
  context: BrowserContext;
}

async function setUp(browser: Browser, baseURL: string, locale: Locale, viewport: typeof DESKTOP): Promise<Scene> {
  const data = openE2eData(stack, secrets.S3_SECRET_ACCESS_KEY, stack.paused.databaseUrl);
  const { agent, propertyId } = await seedAgentWithListing(data);
  const original = await seedOriginalPhoto(data, { propertyId, roomType: 'LIVING_ROOM', isMain: true, fileName: 'living-room.jpg' });
  // Already waiting for review: the queue has a card to work on, the badge says 1.
  await seedStagedVariant(data, { original, canonicalStyle: 'MODERN' });
  const context = await browser.newContext({ baseURL, locale: locale === 'es' ? 'es-ES' : 'en-US', viewport });
  const page = await context.newPage();
  await signInQuickly(page, agent, baseURL);
  await page.close();
  return { data, propertyId, originalId: original.id, context };
}

/**
 * Opens `path` and leaves a mark in its window: a reload or any document navigation loses it, a
 * client-side navigation changes the URL; `expectUndisturbed` checks both.
 */
async function openPage(context: BrowserContext, path: string): Promise<{ page: Page; url: string }> {
  const page = await context.newPage();
  await page.goto(path);
  await page.evaluate(() => Object.assign(window, { liveStatusMarker: 'kept' }));
  return { page, url: page.url() };
}

/** Focuses `locator` and marks it, so the same element can be recognised later. */
async function focusAndMark(locator: Locator): Promise<void> {
  await locator.focus();
  await locator.evaluate((element) => element.setAttribute('data-focus-mark', 'kept'));
}

async function expectUndisturbed(opened: { page: Page; url: string }): Promise<void> {
  expect(opened.page.url(), 'no navigation').toBe(opened.url);
  expect(await opened.page.evaluate(() => (window as unknown as { liveStatusMarker?: string }).liveStatusMarker), 'no reload').toBe('kept');
  expect(await opened.page.evaluate(() => document.activeElement?.getAttribute('data-focus-mark') ?? null), 'focus stayed').toBe('kept');
}

/** The stage panel's form: one photo, one style, submit (selectors independent of the language). */
async function submitStaging(page: Page): Promise<void> {
  const form = page.locator('form').filter({ has: page.locator('input[type="radio"][value="SCANDINAVIAN"]') });
  await form.getByRole('checkbox', { name: 'living-room.jpg' }).check();
  await form.locator('input[type="radio"][value="SCANDINAVIAN"]').check();
  await form.locator('button[type="submit"]').click();
  await expect(page.getByTestId('stage-results').locator('[data-disposition="ENQUEUED"]')).toBeVisible();
}

/** The worker's steps after the switch goes on: attempt 1 bought, then the result stored for review. */
async function startJob(data: E2eData, aiJobId: string): Promise<void> {
  await data.db.$transaction(async (tx) => {
    await tx.aiJob.update({ where: { id: aiJobId }, data: { status: 'PROCESSING', phase: null, startedAt: new Date(), heartbeatAt: new Date() } });
    await createProviderAttempt(tx, { aiJobId, status: 'ACTIVE', providerPredictionId: `e2e-live-${aiJobId}`, costMicrousd: 42_000 });
  });
}

async function finishJob(data: E2eData, aiJobId: string, originalId: string): Promise<void> {
  const original = await data.db.propertyImage.findUniqueOrThrow({ where: { id: originalId } });
  const result = await seedStagedVariant(data, { original, canonicalStyle: 'SCANDINAVIAN', aiJobId });
  await data.db.$transaction([
    data.db.aiProviderAttempt.updateMany({ where: { aiJobId }, data: { status: 'SUCCEEDED', endedAt: new Date() } }),
    data.db.aiRoomStagingJob.update({ where: { aiJobId }, data: { resultImageId: result.id } }),
    data.db.aiJob.update({ where: { id: aiJobId }, data: { status: 'SUCCESS', phase: null, completedAt: new Date() } }),
  ]);
}

/** The review badge: on the Review link on a desktop, on the Menu button on a phone. */
function reviewBadge(page: Page, phone: boolean) {
  return phone ? page.locator('.nav-toggle .badge') : page.getByTestId('review-count');
}

async function followsAJobWithoutReload(browser: Browser, locale: Locale, viewport: typeof DESKTOP, shots: string) {
  const phone = viewport.width < 600;
  const scene = await setUp(browser, stack.paused.pushOnlyWebUrl, locale, viewport);
  const { data, propertyId, originalId, context } = scene;
  try {
    const property = await openPage(context, `/properties/${propertyId}`);
    const review = await openPage(context, '/review');
    const history = await openPage(context, '/jobs');
    for (const { page } of [property, review, history]) {
      // Live before anything happens: with an hour between polls, only the stream moves these pages.
      await expect(page.locator('header.site-header')).toHaveAttribute('data-live', 'true');
      await expect(reviewBadge(page, phone)).toContainText('1');
    }
    await expect(review.page.getByTestId('review-item')).toHaveCount(1);
    await expect(history.page.getByTestId('job')).toHaveCount(0);

    await submitStaging(property.page);
    const aiJobId = (await data.db.aiJob.findFirstOrThrow({ where: { propertyId }, select: { id: true } })).id;

    // The agent carries on elsewhere: a control on each page has focus when the job changes.
    const reviewLink = phone ? property.page.locator('.nav-toggle') : property.page.getByRole('navigation').getByRole('link', { name: /Review|Revisión/ });
    await focusAndMark(reviewLink);
    await focusAndMark(review.page.getByTestId('review-item').getByRole('checkbox'));
    // The history page learns of the new job from the stream alone (it submitted nothing).
    const row = history.page.locator(`[data-job-id="${aiJobId}"]`);
    await expect(row).toHaveAttribute('data-status', 'PENDING');
    await focusAndMark(row.getByRole('link').first());

    // The paused world's worker sets the phase; nobody on these pages asked.
    await expect(row).toHaveAttribute('data-phase', 'PROVIDER_DISABLED');
    await startJob(data, aiJobId);
    await expect(row).toHaveAttribute('data-status', 'PROCESSING');
    await expect(row.getByTestId('job-status')).toHaveText(outcome(locale, 'PROCESSING'));
    const propertyRow = property.page.locator(`[data-job-id="${aiJobId}"]`);
    await expect(propertyRow).toHaveAttribute('data-status', 'PROCESSING');

    await finishJob(data, aiJobId, originalId);
    for (const jobRow of [row, propertyRow]) {
      await expect(jobRow).toHaveAttribute('data-outcome', 'PENDING_REVIEW');
      await expect(jobRow.getByTestId('job-status')).toHaveText(outcome(locale, 'PENDING_REVIEW'));
    }
    // The property page shows the new variant, the queue its card, every badge the new count.
    await expect(property.page.getByTestId('variant')).toHaveCount(2);
    await expect(review.page.getByTestId('review-item')).toHaveCount(2);
    for (const { page } of [property, review, history]) await expect(reviewBadge(page, phone)).toContainText('2');

    for (const opened of [property, review, history]) await expectUndisturbed(opened);
    await saveScreenshot(property.page, `${shots}-property`);
    await saveScreenshot(review.page, `${shots}-review`);
    await saveScreenshot(history.page, `${shots}-jobs`);
  } finally {
    await context.close();
    await data.close();
  }
}

test('desktop, English: the property page, review queue, job history and badge follow a job by push, focus kept', async ({ browser }) => {
  await followsAJobWithoutReload(browser, 'en', DESKTOP, 'live-status-desktop-en');
});

test('phone, Spanish: the same pages follow the job by push, in Spanish, focus kept', async ({ browser }) => {
  await followsAJobWithoutReload(browser, 'es', PHONE, 'live-status-phone-es');
});

test('without the live stream (blocked), the pages still follow the job by polling', async ({ browser }) => {
  const scene = await setUp(browser, stack.paused.webUrl, 'en', DESKTOP);
  const { data, propertyId, originalId, context } = scene;
  try {
    // As a proxy that does not pass streams would: every attempt fails, the pages poll.
    await context.route('**/api/trpc/ai.stagingEvents**', (route) => route.abort());
    const property = await openPage(context, `/properties/${propertyId}`);
    const review = await openPage(context, '/review');
    await expect(review.page.getByTestId('review-item')).toHaveCount(1);
    await submitStaging(property.page);
    const aiJobId = (await data.db.aiJob.findFirstOrThrow({ where: { propertyId }, select: { id: true } })).id;
    await focusAndMark(review.page.getByTestId('review-item').getByRole('checkbox'));

    // Once the paused worker has parked the job, it leaves it alone for a while.
    await expect(property.page.locator(`[data-job-id="${aiJobId}"]`)).toHaveAttribute('data-phase', 'PROVIDER_DISABLED');
    await startJob(data, aiJobId);
    await finishJob(data, aiJobId, originalId);
    // The job list polls every 1.5 s while the job runs; the queue and the badge every 15 s.
    await expect(property.page.locator(`[data-job-id="${aiJobId}"]`)).toHaveAttribute('data-outcome', 'PENDING_REVIEW');
    await expect(review.page.getByTestId('review-item')).toHaveCount(2);
    await expect(review.page.getByTestId('review-count')).toContainText('2');
    for (const { page } of [property, review]) await expect(page.locator('header.site-header')).toHaveAttribute('data-live', 'false');
    await expectUndisturbed(review);
    await saveScreenshot(review.page, 'live-status-polling-review');
  } finally {
    await context.close();
    await data.close();
  }
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const CANCEL_NOTES = {
  en: {
    requested: 'Cancel requested. One attempt was already bought and cannot be refunded; nothing more will be bought.',
    canceled: 'Canceled. One attempt had already been bought; its estimate stays in the spend.',
  },
  es: {
    requested: 'Cancelación solicitada. Ya se compró un intento y no se reembolsa; no se comprará nada más.',
    canceled: 'Cancelado. Ya se había comprado un intento; su estimación sigue en el gasto.',
  },
} as const;

for (const [locale, viewport, name] of [['en', DESKTOP, 'desktop'], ['es', PHONE, 'phone']] as const) {
  test(`${name}, ${locale}: the note of a cancel follows the job from "cancel requested" to "canceled"`, async ({ browser }) => {
    const scene = await setUp(browser, stack.paused.webUrl, locale, viewport);
    const { data, propertyId, context } = scene;
    try {
      const { page } = await openPage(context, `/properties/${propertyId}`);
      await submitStaging(page);
      const aiJobId = (await data.db.aiJob.findFirstOrThrow({ where: { propertyId }, select: { id: true } })).id;
      const row = page.locator(`[data-job-id="${aiJobId}"]`);
      // Parked by the paused worker, then running with one attempt bought, as the worker leaves it.
      await expect(row).toHaveAttribute('data-phase', 'PROVIDER_DISABLED');
      await startJob(data, aiJobId);
      await expect(row).toHaveAttribute('data-status', 'PROCESSING');
      await row.getByRole('button', { name: locale === 'es' ? /^Cancelar/ : /^Cancel/ }).click();
      const note = row.getByTestId('cancel-note');
      // The paused worker buys nothing but may settle the cancel itself, before or after the page
      // shows the request: either note is right for that moment.
      await expect(note).toHaveText(new RegExp(`^(${escapeRegExp(CANCEL_NOTES[locale].requested)}|${escapeRegExp(CANCEL_NOTES[locale].canceled)})$`));
      // Otherwise the worker's settling is written here as it writes it.
      await data.db.$transaction([
        data.db.aiProviderAttempt.updateMany({ where: { aiJobId }, data: { status: 'CANCELED', endedAt: new Date() } }),
        data.db.aiJob.updateMany({ where: { id: aiJobId, status: 'CANCEL_REQUESTED' }, data: { status: 'CANCELED', phase: null, completedAt: new Date() } }),
      ]);
      await expect(row).toHaveAttribute('data-status', 'CANCELED');
      await expect(row.getByTestId('job-status')).toHaveText(outcome(locale, 'CANCELED'));
      await expect(note).toHaveText(CANCEL_NOTES[locale].canceled);
      await row.scrollIntoViewIfNeeded();
      await saveScreenshot(page, `live-status-cancel-note-${name}-${locale}`, { fullPage: false });
    } finally {
      await context.close();
      await data.close();
    }
  });
}

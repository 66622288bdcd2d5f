import {
  countSimulatorPredictions,
  openE2eData,
  seedAgentWithListing,
  seedOriginalPhoto,
} from '@staging/stack/e2e-fixtures';
import { expect, saveScreenshot, secrets, signInQuickly, stack, test } from './support/fixtures';

// The paused world of the stack: its web instance accepts submissions, its worker runs with
// AI_ROOM_STAGING_ENABLED=false, so a new job waits unpaid in PENDING with phase PROVIDER_DISABLED.
// The world has a provider account of its own, so no purchase was ever made on it.
test('jobs panel: a job waiting with the provider switched off shows PROVIDER_DISABLED and can be canceled', async ({ browser }) => {
  const data = openE2eData(stack, secrets.S3_SECRET_ACCESS_KEY, stack.paused.databaseUrl);
  try {
    const { agent, propertyId } = await seedAgentWithListing(data);
    await seedOriginalPhoto(data, { propertyId, roomType: 'OFFICE', isMain: true });
    const context = await browser.newContext({ baseURL: stack.paused.webUrl });
    const page = await context.newPage();
    await signInQuickly(page, agent, stack.paused.webUrl);
    await page.goto(`/properties/${propertyId}`);
    await page.getByRole('checkbox', { name: 'Photo 1', exact: true }).check();
    await page.getByRole('radio', { name: /^Mid-century/ }).check();
    await page.getByRole('button', { name: 'Stage selected photos' }).click();
    await expect(page.getByTestId('stage-results').locator('[data-disposition="ENQUEUED"]')).toBeVisible();

    const job = page.getByTestId('job').first();
    await expect(job).toHaveAttribute('data-phase', 'PROVIDER_DISABLED', { timeout: 60_000 });
    await expect(job).toHaveAttribute('data-status', 'PENDING');
    await expect(job.getByTestId('job-status')).toHaveText('Waiting to start');
    await expect(job.getByTestId('job-phase')).toHaveText('Paused: AI staging is switched off; the job resumes when it is switched back on');
    await expect(job.getByTestId('job-attempt')).toHaveText('No attempt yet');
    await saveScreenshot(page, 'jobs-provider-disabled');
    expect(await countSimulatorPredictions(stack.paused.simulatorOrigin)).toBe(0);

    // Cancel while waiting: straight to CANCELED, nothing bought.
    await job.getByRole('button', { name: /^Cancel/ }).click();
    await expect(job).toHaveAttribute('data-status', 'CANCELED', { timeout: 60_000 });
    const row = await data.db.aiJob.findFirstOrThrow({ where: { propertyId }, include: { attempts: true } });
    expect(row.status).toBe('CANCELED');
    expect(row.canceledAt).not.toBeNull();
    expect(row.attempts).toHaveLength(0);
    expect(await countSimulatorPredictions(stack.paused.simulatorOrigin)).toBe(0);
    await context.close();
  } finally {
    await data.close();
  }
});

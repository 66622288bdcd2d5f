import { countStagingJobs, seedAgentWithListing, seedOriginalPhoto } from '@staging/stack/e2e-fixtures';
import { expect, saveScreenshot, signInQuickly, stack, test } from './support/fixtures';

// The second web instance of the stack runs the same build with AI_ROOM_STAGING_ENABLED=false.
const CASES = [
  {
    locale: 'en-US',
    title: 'AI staging is temporarily unavailable',
    stageButton: 'Stage selected photos',
    photo: 'Photo 1',
    style: /^Coastal/,
  },
  {
    locale: 'es-ES',
    title: 'El amueblado con IA no está disponible temporalmente',
    stageButton: 'Amueblar las fotos elegidas',
    photo: 'Foto 1',
    style: /^Costero/,
  },
] as const;

for (const c of CASES) {
  test(`kill switch off: localized unavailable state (${c.locale}) and the stage action sends nothing`, async ({ browser, data }) => {
    const { agent, propertyId } = await seedAgentWithListing(data);
    await seedOriginalPhoto(data, { propertyId, roomType: 'DINING_ROOM', isMain: true });
    const context = await browser.newContext({ baseURL: stack.webDisabledUrl, locale: c.locale });
    const page = await context.newPage();
    await signInQuickly(page, agent, stack.webDisabledUrl);

    const trpcCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/trpc/')) trpcCalls.push(request.url());
    });
    await page.goto(`/properties/${propertyId}`);
    const notice = page.getByTestId('staging-unavailable');
    await expect(notice).toBeVisible();
    await expect(notice).toContainText(c.title);
    await expect(page.locator('html')).toHaveAttribute('lang', c.locale.slice(0, 2));

    await page.getByRole('checkbox', { name: c.photo, exact: true }).check();
    await page.getByRole('radio', { name: c.style }).check();
    // The button is aria-disabled (still focusable, so its state is announced); pressing it
    // explains the state instead of submitting.
    const stage = page.getByRole('button', { name: c.stageButton });
    await expect(stage).toHaveAttribute('aria-disabled', 'true');
    await stage.focus();
    await page.keyboard.press('Enter');
    await expect(notice).toBeFocused();
    await saveScreenshot(page, `kill-switch-${c.locale}`);

    // Nothing was sent and nothing was created.
    expect(trpcCalls.filter((url) => url.includes('ai.submitStaging'))).toEqual([]);
    expect(await countStagingJobs(data, propertyId)).toBe(0);
    await context.close();
  });
}

test('kill switch turned off after the page loaded: the refusal is the notice, and it takes focus', async ({ page, data }) => {
  const { agent, propertyId } = await seedAgentWithListing(data);
  await seedOriginalPhoto(data, { propertyId, roomType: 'DINING_ROOM', isMain: true });
  await signInQuickly(page, agent);
  await page.goto(`/properties/${propertyId}`);
  await expect(page.getByTestId('staging-unavailable')).toHaveCount(0);

  // The switch goes off between render and submit: the submission reaches the instance whose
  // switch is off (same database and sessions), which answers STAGING_UNAVAILABLE.
  const disabled = new URL(stack.webDisabledUrl);
  await page.route(
    (url) => url.pathname.startsWith('/api/trpc/') && url.pathname.includes('ai.submitStaging'),
    async (route) => {
      const url = new URL(route.request().url());
      url.host = disabled.host;
      const response = await route.fetch({ url: url.toString(), headers: { ...route.request().headers(), origin: disabled.origin } });
      await route.fulfill({ response });
    },
  );
  await page.getByRole('checkbox', { name: 'Photo 1', exact: true }).check();
  await page.getByRole('radio', { name: /^Coastal/ }).check();
  await page.getByRole('button', { name: 'Stage selected photos' }).click();

  const notice = page.getByTestId('staging-unavailable');
  await expect(notice).toContainText('AI staging is temporarily unavailable');
  await expect(notice).toBeFocused();
  // The notice is the only message in the panel: no second, generic error banner under the form.
  await expect(page.locator('#stage-panel').getByRole('alert')).toHaveCount(1);
  expect(await countStagingJobs(data, propertyId)).toBe(0);
});

import { SCALE_SIZES } from '@staging/db/testing/scale-seed';
import { seedAgencyAtScale } from '@staging/stack/e2e-fixtures';
import { expect, saveScreenshot, signInQuickly, stack, test, VIEWPORTS } from './support/fixtures';

// An agency agent at 100× a demo customer: 10,000 properties with 100,000 staging jobs, their
// spend and review, and 500,000 items in one property. Every page must open on its first page of
// rows, and page on from there, as it does for an agent with one property; the inventory exports.
const L = SCALE_SIZES.find((size) => size.name === 'L')!;

test.describe.configure({ mode: 'serial' });

let agency: Awaited<ReturnType<typeof seedAgencyAtScale>>;
test.beforeAll(async ({ data }) => {
  agency = await seedAgencyAtScale(data, L);
});

for (const viewport of VIEWPORTS) {
  test(`an agency with 10,000 properties (${viewport.name}): properties, history, spend, review and inventory open on a page and page on`, async ({ browser }) => {
    const { agent } = agency;
    const context = await browser.newContext({ baseURL: stack.webUrl, viewport });
    const page = await context.newPage();
    await signInQuickly(page, agent);

    await page.goto('/properties');
    await expect(page.getByTestId('property-card')).toHaveCount(50);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByText('Page 2')).toBeVisible();
    await expect(page.getByTestId('property-card')).toHaveCount(50);
    await saveScreenshot(page, `scale-properties-${viewport.name}`);

    await page.goto('/jobs');
    const jobs = page.getByTestId('job');
    await expect(jobs.first()).toBeVisible();
    const firstPage = await jobs.count();
    await page.getByRole('button', { name: 'Older' }).click();
    await expect(page.getByText('Page 2')).toBeVisible();
    await expect(jobs).toHaveCount(firstPage);
    await saveScreenshot(page, `scale-history-${viewport.name}`);

    await page.goto('/spend');
    const month = page.getByTestId('spend-month').first();
    await expect(month.getByTestId('spend-row')).toHaveCount(10);
    await month.getByTestId('spend-more').click();
    await expect(month.getByTestId('spend-row')).toHaveCount(50);
    await month.getByTestId('spend-more').click();
    await expect(month.getByTestId('spend-row')).toHaveCount(100);
    await saveScreenshot(page, `scale-spend-${viewport.name}`);

    await page.goto('/review');
    await expect(page.getByTestId('review-item')).toHaveCount(50);
    await expect(page.getByTestId('review-count').first()).toHaveText(/100\+/);
    await page.getByTestId('review-more').first().click();
    await expect(page.getByTestId('review-item')).toHaveCount(100);
    await saveScreenshot(page, `scale-review-${viewport.name}`);

    // 500,000 items in one property: a page per unit, more on demand, and an export that streams.
    await page.goto(`/properties/${agency.seed.propertyId}/inventory`);
    await expect(page.getByTestId('paged-inventory')).toBeVisible();
    const firstUnit = page.getByTestId('inventory-unit').first();
    const rows = firstUnit.getByTestId('inventory-row');
    await expect(rows).toHaveCount(100);
    await firstUnit.getByTestId('inventory-more').click();
    await expect(rows).toHaveCount(200);
    await saveScreenshot(page, `scale-inventory-${viewport.name}`);
    await expect(page.getByRole('button', { name: 'Export all units (CSV)' })).toBeEnabled();
    const href = `/api/properties/${agency.seed.propertyId}/inventory.csv?locale=en`;
    const head = await page.evaluate(async (url) => {
      const answer = await fetch(url);
      const reader = answer.body!.getReader();
      const { value } = await reader.read();
      // The first rows are enough: the rest would be 500,000 more.
      await reader.cancel();
      return { status: answer.status, type: answer.headers.get('content-type'), start: new TextDecoder().decode(value).slice(0, 100) };
    }, href);
    expect(head).toMatchObject({ status: 200, type: 'text/csv; charset=utf-8' });
    expect(head.start).toMatch(/^unitName,unitNumber,floor,status,priceAdjustment,notes/);
    await context.close();
  });
}

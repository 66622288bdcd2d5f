import { expect, saveScreenshot, test } from './support/fixtures';
import { seedAgentWithListing } from '@staging/stack/e2e-fixtures';

test.describe('sign-in', () => {
  test('a signed-out visitor of an agent page signs in and comes back to it', async ({ page, data }) => {
    const { agent, propertyId, title } = await seedAgentWithListing(data);
    const target = `/properties/${propertyId}`;

    await page.goto(target);
    await expect(page).toHaveURL(new RegExp(`/sign-in\\?next=${encodeURIComponent(target).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await saveScreenshot(page, 'sign-in');

    await page.getByLabel('Email').fill(agent.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('#sign-in-error')).toContainText('do not match');

    await page.getByLabel('Password').fill(agent.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(new RegExp(`${target}$`));
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto('/properties');
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fproperties/);
  });
});

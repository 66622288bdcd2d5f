import { seedAgent, seedAgentWithListing, seedOriginalPhoto, seedUnitWithItems } from '@staging/stack/e2e-fixtures';
import { expect, signInQuickly, test } from './support/fixtures';

test("an unrelated agent cannot see another agent's property, its inventory or its photos", async ({ page, data }) => {
  const owner = await seedAgentWithListing(data);
  const photo = await seedOriginalPhoto(data, { propertyId: owner.propertyId, isMain: true });
  await seedUnitWithItems(data, { propertyId: owner.propertyId, count: 2 });
  const stranger = await seedAgent(data);

  await signInQuickly(page, stranger);
  await page.goto('/properties');
  await expect(page.getByRole('heading', { level: 1, name: 'Your properties' })).toBeVisible();
  await expect(page.getByText('You have no properties yet.')).toBeVisible();
  await expect(page.getByText(owner.title)).toHaveCount(0);

  await page.goto(`/properties/${owner.propertyId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Property not found' })).toBeVisible();
  await expect(page.getByText(owner.title)).toHaveCount(0);

  await page.goto(`/properties/${owner.propertyId}/inventory`);
  await expect(page.getByRole('alert').filter({ hasText: 'Property not found' })).toBeVisible();
  await expect(page.getByTestId('inventory-row')).toHaveCount(0);

  // The agent image route answers as if the photo did not exist.
  expect((await page.request.get(`/api/property-images/${photo.id}/content`)).status()).toBe(404);
  const patch = await page.request.patch(`/api/property-images/${photo.id}`, { data: { isMain: true } });
  expect(patch.status()).toBe(404);

  // The owner sees all of it.
  await page.context().clearCookies();
  await signInQuickly(page, owner.agent);
  await page.goto(`/properties/${owner.propertyId}`);
  await expect(page.getByRole('heading', { level: 1, name: owner.title })).toBeVisible();
  expect((await page.request.get(`/api/property-images/${photo.id}/content`)).status()).toBe(200);
});

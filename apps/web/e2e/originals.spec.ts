import { findImage, seedAgentWithListing, seedOriginalPhoto } from '@staging/stack/e2e-fixtures';
import { expect, signInQuickly, test } from './support/fixtures';

test('originals: set the room type, set the cover, delete with confirmation', async ({ page, data }) => {
  const { agent, propertyId } = await seedAgentWithListing(data);
  const first = await seedOriginalPhoto(data, { propertyId, roomType: 'KITCHEN', isMain: true, displayOrder: 0 });
  const second = await seedOriginalPhoto(data, { propertyId, roomType: null, displayOrder: 1, wall: '#c9d6df' });
  await signInQuickly(page, agent);
  await page.goto(`/properties/${propertyId}`);
  const cards = page.getByTestId('original-card');
  await expect(cards).toHaveCount(2);
  const firstCard = cards.filter({ has: page.getByRole('heading', { name: 'Photo 1 (Kitchen)' }) });
  const secondCard = cards.filter({ has: page.getByRole('heading', { name: /^Photo 2/ }) });
  await expect(firstCard.getByText('Cover', { exact: true })).toBeVisible();

  // Room type: persisted on the original, then prefilled in the stage form.
  await secondCard.getByLabel('Room type').selectOption('TV_ROOM');
  await expect(page.getByRole('heading', { name: 'Photo 2 (TV / media room)' })).toBeVisible();
  expect((await findImage(data, second.id))?.roomType).toBe('TV_ROOM');
  await page.getByRole('checkbox', { name: 'Photo 2', exact: true }).check();
  await expect(page.getByLabel('Room type for Photo 2')).toHaveValue('TV_ROOM');

  // Cover moves to the second photo.
  await secondCard.getByRole('button', { name: /^Set as cover/ }).click();
  await expect(secondCard.getByText('Cover', { exact: true })).toBeVisible();
  await expect(firstCard.getByText('Cover', { exact: true })).toHaveCount(0);
  expect((await findImage(data, second.id))?.isMain).toBe(true);
  expect((await findImage(data, first.id))?.isMain).toBe(false);

  // Delete asks first; Cancel keeps the photo, confirming removes it.
  await firstCard.getByRole('button', { name: /^Delete/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Photo 1 (Kitchen)?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(await findImage(data, first.id)).not.toBeNull();
  await firstCard.getByRole('button', { name: /^Delete/ }).click();
  await dialog.getByRole('button', { name: 'Delete photo' }).click();
  await expect(cards).toHaveCount(1);
  expect(await findImage(data, first.id)).toBeNull();
});

// The pages every "walk the whole UI" test visits (axe, localization), with the listing they need.
import type { Page } from '@playwright/test';
import { seedAgentWithListing, seedOriginalPhoto, seedStagedVariant, seedUnitWithItems, type E2eData } from '@staging/stack/e2e-fixtures';
import type { RoomType } from '@staging/domain/room-types';
import { expect } from './fixtures';
import { seedFinishedJob } from './seed-jobs';

export interface TourListing {
  title: string;
  /** Room type of the second photo. */
  secondRoom: RoomType;
  unitName: string;
  items: number;
}

/** A listing with a cover, a second photo, one pending and one approved variant, a failed job and inventory. */
export async function seedTourListing(data: E2eData, spec: TourListing) {
  const listing = await seedAgentWithListing(data, { title: spec.title });
  const living = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: 'LIVING_ROOM', isMain: true, displayOrder: 0 });
  const second = await seedOriginalPhoto(data, { propertyId: listing.propertyId, roomType: spec.secondRoom, displayOrder: 1, wall: '#c9d6df' });
  await seedStagedVariant(data, { original: living, canonicalStyle: 'COASTAL', reviewStatus: 'APPROVED', reviewedByUserId: listing.agent.id });
  await seedStagedVariant(data, { original: second, canonicalStyle: 'FARMHOUSE' });
  await seedUnitWithItems(data, { propertyId: listing.propertyId, name: spec.unitName, count: spec.items });
  await seedFinishedJob(data, { propertyId: listing.propertyId, originalImageId: living.id, status: 'FAILED', errorCode: 'ATTEMPTS_EXHAUSTED', attempts: 2, costMicrousd: 42_000 });
  return listing;
}

export interface PageCheck {
  /** Stable name, e.g. for screenshots. */
  name: string;
  path: string;
  /** Waits until the page shows its data, so the checks see what a visitor reads. */
  ready: (page: Page) => Promise<void>;
}

/** Ready once the page's level-1 heading shows. */
export const heading = (page: Page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible();

export function publicPages(propertyId: string, searchQuery: string): PageCheck[] {
  return [
    { name: 'sign-in', path: '/sign-in', ready: heading },
    { name: 'public-listing', path: `/listings/${propertyId}`, ready: (page) => expect(page.getByTestId('staged-photo')).toHaveCount(1) },
    { name: 'public-search', path: `/search?q=${encodeURIComponent(searchQuery)}`, ready: heading },
    { name: 'not-found', path: '/no-such-page', ready: heading },
  ];
}

export function agentPages(propertyId: string, inventoryRows: number): PageCheck[] {
  return [
    { name: 'properties', path: '/properties', ready: (page) => expect(page.getByTestId('property-card')).toHaveCount(1) },
    {
      name: 'property',
      path: `/properties/${propertyId}`,
      ready: async (page) => {
        await expect(page.getByTestId('original-card')).toHaveCount(2);
        await expect(page.getByTestId('job')).toHaveCount(1);
      },
    },
    { name: 'review', path: '/review', ready: (page) => expect(page.getByTestId('review-item')).toHaveCount(1) },
    { name: 'inventory', path: `/properties/${propertyId}/inventory`, ready: (page) => expect(page.getByTestId('inventory-row')).toHaveCount(inventoryRows) },
    { name: 'history', path: '/jobs', ready: (page) => expect(page.getByTestId('job')).toHaveCount(1) },
    { name: 'spend', path: '/spend', ready: (page) => expect(page.getByTestId('spend-row')).toHaveCount(1) },
  ];
}

// The listings the public-read and public-pages benchmarks read: 60 listings of one agent, each
// with 4 originals, 2 APPROVED variants and 1 pending one, all in the search index. Half of them
// are in Lisbon, so a search for it matches 30.
import { createOriginalImage, createProperty, createStagedImage, createUser } from '@staging/db/testing/factories';
import { rebuildSearchDocument } from '@staging/services/search/build-search-document';
import type { BenchStack } from './bench-stack';
import { present } from './present';

export const LISTINGS = 60;
/** The search the benchmarks send: a city word that half of the listings match. */
export const SEARCH_WORD = 'lisbon';

export interface PublicListings {
  propertyIds: string[];
  /** Removes the search documents (their keys have no queue suffix, so the stack's close misses them). */
  remove(): Promise<void>;
}

export async function seedPublicListings(stack: BenchStack): Promise<PublicListings> {
  const { db, redis, queueSuffix } = stack;
  const propertyIds: string[] = [];
  const owner = await createUser(db);
  const remove = async () => {
    if (propertyIds.length > 0) await redis.del(...propertyIds.map((id) => `psearch:property:${id}`));
  };
  try {
    for (let i = 0; i < LISTINGS; i += 1) {
      const property = await createProperty(db, { ownerAgentId: owner.id, title: `Listing ${i}`, city: i % 2 === 0 ? 'Lisbon' : 'Porto' });
      propertyIds.push(property.id);
      const originals = [];
      for (let n = 0; n < 4; n += 1) originals.push(await createOriginalImage(db, { propertyId: property.id }));
      for (const original of originals.slice(0, 2)) await createStagedImage(db, { original, reviewStatus: 'APPROVED' });
      await createStagedImage(db, { original: present(originals[3], 'the fourth original') });
      await rebuildSearchDocument(db, redis, property.id, { queueSuffix });
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { propertyIds, remove };
}

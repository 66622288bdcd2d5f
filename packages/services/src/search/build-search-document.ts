import type { Redis } from 'ioredis';
import type { Db } from '@staging/db/client';
import { readPublicProperty } from '../public/get-public-property';
import { toPublicImages } from '../public/public-images';
import { writePublicSearchDocuments } from './public-search-documents';
import { searchDocumentKey, searchIndexKey } from './search-index-keys';

/** The hash `psearch:property:<id>` as written; every value is a string in Redis. */
export interface SearchDocument {
  id: string;
  title: string;
  city: string;
  address: string;
  bedrooms: string;
  bathrooms: string;
  /** Lower-cased words matched by public search (title, city, address, description, features). */
  text: string;
  coverImageId: string;
  /** JSON list of the public images (PublicImageDto; isStyled true only for APPROVED variants). */
  images: string;
  /** Milliseconds of the database read the document reflects; orders concurrent rebuilds. */
  builtAt: string;
}

/** How long the marker of a removed property stays (see the script below). */
const TOMBSTONE_TTL_SECONDS = 24 * 3600;

/**
 * Writes or removes a document only if no newer rebuild already did. Two workers can rebuild the
 * same property concurrently; the one that read the database earlier must not overwrite the
 * later one's document, and a rebuild that read a property just before its deletion must not
 * bring it back (the removal leaves a short-lived `builtAt` tombstone for that comparison).
 *
 * KEYS: document, index set. ARGV: builtAt, propertyId, mode ('write' | 'remove'), field/value...
 */
const WRITE_IF_NEWER = `
local current = redis.call('HGET', KEYS[1], 'builtAt')
if current and tonumber(current) > tonumber(ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1])
if ARGV[3] == 'remove' then
  redis.call('HSET', KEYS[1], 'builtAt', ARGV[1])
  redis.call('EXPIRE', KEYS[1], ${TOMBSTONE_TTL_SECONDS})
  redis.call('SREM', KEYS[2], ARGV[2])
  return 1
end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('SADD', KEYS[2], ARGV[2])
return 1
`;

export interface RebuildOptions {
  queueSuffix: string;
  /** Time source for `builtAt`; the wall clock by default. */
  now?: () => Date;
}

export type RebuildResult = 'written' | 'removed' | 'superseded';

function searchText(parts: readonly (string | null | undefined)[]): string {
  return parts
    .filter((part): part is string => typeof part === 'string' && part.length > 0)
    .join(' ')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Rebuilds the search documents of one property from the database: originals (isStyled false)
 * and APPROVED staged variants (isStyled true) only, the same visibility rule as the public
 * routes. Two documents: the row of public_search_documents that public search reads (written in
 * one statement by the database, which skips it when a newer one is stored), and the Redis hash
 * `psearch:property:<id>` that docs/system.md 2.4 defines. A property that no longer exists loses
 * both (its row by ON DELETE CASCADE). Idempotent.
 */
export async function rebuildSearchDocument(
  db: Db,
  redis: Redis,
  propertyId: string,
  options: RebuildOptions,
): Promise<RebuildResult> {
  // Taken before the read: a document is as new as the data it was built from.
  const builtAt = String((options.now ?? (() => new Date()))().getTime());
  await writePublicSearchDocuments(db, [propertyId]);
  const property = await readPublicProperty(db, propertyId);
  const keys = [searchDocumentKey(propertyId), searchIndexKey(options.queueSuffix)];
  if (property === null) {
    const removed = await redis.eval(WRITE_IF_NEWER, 2, ...keys, builtAt, propertyId, 'remove');
    return removed === 1 ? 'removed' : 'superseded';
  }
  const images = toPublicImages(property.images);
  const document: SearchDocument = {
    id: property.id,
    title: property.title,
    city: property.city,
    address: property.address,
    bedrooms: String(property.bedrooms),
    bathrooms: String(property.bathrooms),
    text: searchText([property.title, property.city, property.address, property.description, ...property.features]),
    coverImageId: images.find((image) => image.isCover)?.id ?? '',
    images: JSON.stringify(images),
    builtAt,
  };
  const fields = Object.entries(document).flat();
  const written = await redis.eval(WRITE_IF_NEWER, 2, ...keys, builtAt, propertyId, 'write', ...fields);
  return written === 1 ? 'written' : 'superseded';
}

import type { ChainableCommander, Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { isRedisUnavailable } from '@staging/platform/queues';
import { PUBLIC_SEARCH_LIMITS } from '@staging/domain/public-search';
import { z } from 'zod';
import { searchDocumentKey, searchIndexKey } from '../search/search-index-keys';
import { publicImageUrl, STAGED_DISCLOSURE_LABEL, ZPublicImage } from './public-images';
import type { PublicImageDto } from './public-images';

// Kept in the domain so the web's proxy can bound a query without loading this module's Redis code.
export { PUBLIC_SEARCH_LIMITS };

export const ZPublicSearchInput = z.strictObject({
  q: z.string().max(PUBLIC_SEARCH_LIMITS.queryMaxLength).default(''),
  limit: z.number().int().min(1).max(PUBLIC_SEARCH_LIMITS.maxLimit).default(PUBLIC_SEARCH_LIMITS.defaultLimit),
});

export type TPublicSearchInput = z.input<typeof ZPublicSearchInput>;

const ZPublicSearchHit = z.strictObject({
  id: z.string(),
  title: z.string(),
  city: z.string(),
  address: z.string(),
  bedrooms: z.number(),
  bathrooms: z.number(),
  coverImage: ZPublicImage.nullable(),
  /** Shared between searches (see parseImages) and frozen. */
  images: z.array(ZPublicImage).readonly(),
});
type PublicSearchHit = z.infer<typeof ZPublicSearchHit>;

export const ZPublicSearchResult = z.strictObject({
  query: z.string(),
  total: z.int().nonnegative(),
  results: z.array(ZPublicSearchHit),
});
export type PublicSearchResult = z.infer<typeof ZPublicSearchResult>;

// The document is data from Redis, so it is parsed, not trusted: a corrupt or stale-format entry
// is skipped and, whatever it says, a staged image is only passed on in the labelled, linked form:
// the stored image is a public image whose links and label are rebuilt here rather than trusted.
const ZStoredImage = z.object(ZPublicImage.omit({ url: true, label: true, originalUrl: true }).shape);
// Built once: zod 4 compiles a schema's parser on first use, so a schema made per call is slow.
const ZStoredImages = z.array(ZStoredImage);

function toImage(stored: z.infer<typeof ZStoredImage>): PublicImageDto | null {
  if (stored.isStyled && stored.originalImageId === null) return null;
  return {
    id: stored.id,
    url: publicImageUrl(stored.id),
    width: stored.width,
    height: stored.height,
    displayOrder: stored.displayOrder,
    isStyled: stored.isStyled,
    isCover: stored.isCover && !stored.isStyled,
    roomType: stored.roomType,
    style: stored.style,
    label: stored.isStyled ? STAGED_DISCLOSURE_LABEL : null,
    originalImageId: stored.isStyled ? stored.originalImageId : null,
    originalUrl: stored.isStyled && stored.originalImageId !== null ? publicImageUrl(stored.originalImageId) : null,
  };
}

function parseStoredImages(json: string): PublicImageDto[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return [];
  }
  const parsed = ZStoredImages.safeParse(raw);
  if (!parsed.success) return [];
  return parsed.data.map(toImage).filter((image): image is PublicImageDto => image !== null);
}

/**
 * Image lists already parsed, by their exact stored text: a listing's images change rarely, and
 * every search parsed those of each hit again (JSON.parse alone was most of a hit's cost). A
 * rebuilt document has new text and so is parsed and checked anew; the entries are frozen because
 * every search that meets the same text gets the same objects. Bounded by the stored text's length
 * (the parsed list is a few times it), so a catalogue of long galleries cannot grow it unchecked:
 * about 4 MB of text, some 2,000 listings of six images.
 */
const parsedImages = new LRUCache<string, readonly PublicImageDto[]>({
  maxSize: 4_000_000,
  sizeCalculation: (_images, json) => json.length,
});

function parseImages(json: string | null): readonly PublicImageDto[] {
  if (json === null) return [];
  const cached = parsedImages.get(json);
  if (cached !== undefined) return cached;
  const images = Object.freeze(parseStoredImages(json).map((image) => Object.freeze(image)));
  parsedImages.set(json, images);
  return images;
}

function tokensOf(query: string): string[] {
  return query.normalize('NFKC').toLowerCase().split(/\s+/).filter((token) => token.length > 0);
}

/**
 * A pipeline's replies. ioredis fails each command of a pipeline on its own, so a Redis lost between
 * the index read and the documents would read as documents that are gone: an empty page answered
 * 200 (and cached). A reply saying Redis could not be reached fails the whole search instead.
 */
async function repliesOf(pipeline: ChainableCommander): Promise<[Error | null, unknown][]> {
  const replies = (await pipeline.exec()) ?? [];
  const unreachable = replies.find(([error]) => isRedisUnavailable(error));
  if (unreachable !== undefined) throw unreachable[0];
  return replies;
}

const CANDIDATE_FIELDS = ['id', 'title', 'text'] as const;
const HIT_FIELDS = ['id', 'title', 'city', 'address', 'bedrooms', 'bathrooms', 'images'] as const;

/**
 * Anonymous search over the search documents (never over Postgres): every query word must occur
 * in the document's text; hits are ordered by title. Candidates come from the per-suffix index
 * set, read with two pipelined round trips. This is a linear scan of the index, which suits the
 * catalogue sizes of one agency; docs/decisions/public-pages.md "Public surfaces and search
 * documents" records when to move to a search module.
 */
export async function searchPublicProperties(
  deps: { redis: Redis; queueSuffix: string },
  input: TPublicSearchInput,
): Promise<PublicSearchResult> {
  const { q, limit } = ZPublicSearchInput.parse(input);
  const tokens = tokensOf(q);
  const ids = await deps.redis.smembers(searchIndexKey(deps.queueSuffix));
  if (ids.length === 0) return { query: q, total: 0, results: [] };

  const candidates = deps.redis.pipeline();
  for (const id of ids) candidates.hmget(searchDocumentKey(id), ...CANDIDATE_FIELDS);
  const candidateRows = await repliesOf(candidates);
  const matches: { id: string; title: string }[] = [];
  for (const [error, value] of candidateRows) {
    if (error !== null || !Array.isArray(value)) continue;
    const [id, title, text] = value as (string | null)[];
    if (!id || title === null || title === undefined || text === null || text === undefined) continue;
    if (tokens.every((token) => text.includes(token))) matches.push({ id, title });
  }
  matches.sort((a, b) => a.title.localeCompare(b.title) || a.id.localeCompare(b.id));
  const page = matches.slice(0, limit);
  if (page.length === 0) return { query: q, total: 0, results: [] };

  const details = deps.redis.pipeline();
  for (const match of page) details.hmget(searchDocumentKey(match.id), ...HIT_FIELDS);
  const detailRows = await repliesOf(details);
  const results: PublicSearchHit[] = [];
  for (const [error, value] of detailRows) {
    if (error !== null || !Array.isArray(value)) continue;
    const [id, title, city, address, bedrooms, bathrooms, images] = value as (string | null)[];
    // Removed between the two reads: skip rather than return a half-empty hit.
    if (!id || title === null || title === undefined) continue;
    const parsedImages = parseImages(images ?? null);
    results.push({
      id,
      title,
      city: city ?? '',
      address: address ?? '',
      bedrooms: Number(bedrooms ?? 0) || 0,
      bathrooms: Number(bathrooms ?? 0) || 0,
      coverImage: parsedImages.find((image) => image.isCover) ?? null,
      images: parsedImages,
    });
  }
  return { query: q, total: matches.length, results };
}

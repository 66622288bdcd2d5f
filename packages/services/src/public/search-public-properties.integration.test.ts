import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createRedis, isRedisUnavailable, waitForRedis } from '@staging/platform/queues';
import { searchDocumentKey, searchIndexKey } from '../search/search-index-keys';
import { openTestRedis, uniqueQueueSuffix } from '../staging/testing/staging-test-kit';
import { searchPublicProperties } from './search-public-properties';

let redis: Redis;
let queueSuffix: string;
const propertyId = `test-${randomUUID()}`;

beforeAll(() => {
  redis = openTestRedis();
});

beforeEach(() => {
  queueSuffix = uniqueQueueSuffix();
});

afterEach(async () => {
  await redis.del(searchIndexKey(queueSuffix), searchDocumentKey(propertyId));
});

afterAll(() => {
  redis.disconnect();
});

const original = (id: string, isCover: boolean) => ({
  id, width: 800, height: 600, displayOrder: 0, isStyled: false, isCover, roomType: null, style: null, originalImageId: null,
});

/** Writes the search document of one listing, as build-search-document does, with `images` as stored text. */
async function storeDocument(images: string): Promise<void> {
  await redis.hset(searchDocumentKey(propertyId), {
    id: propertyId, title: 'Harbour flat', text: 'harbour flat lisbon', city: 'Lisbon', address: 'Rua 1', bedrooms: '2', bathrooms: '1', images,
  });
  await redis.sadd(searchIndexKey(queueSuffix), propertyId);
}

async function searchedImageIds(): Promise<string[]> {
  const { results } = await searchPublicProperties({ redis, queueSuffix }, { q: 'harbour' });
  expect(results.map((hit) => hit.id)).toEqual([propertyId]);
  return results[0]!.images.map((image) => image.id);
}

describe('public search: the images of a hit', () => {
  it('come from the document as it is now: a rebuilt document is not answered from the last search', async () => {
    await storeDocument(JSON.stringify([original('img-a', true)]));
    expect(await searchedImageIds()).toEqual(['img-a']);
    expect(await searchedImageIds()).toEqual(['img-a']);

    await storeDocument(JSON.stringify([original('img-b', true), original('img-c', false)]));
    expect(await searchedImageIds()).toEqual(['img-b', 'img-c']);
  });

  it('are none when the stored list is not JSON or not of the stored shape, every time it is read', async () => {
    for (const images of ['[{"id":', JSON.stringify([{ id: 'img-x', width: '800' }])]) {
      await storeDocument(images);
      expect(await searchedImageIds()).toEqual([]);
      expect(await searchedImageIds()).toEqual([]);
    }
  });

  it('are read-only, so a caller cannot change what the next search answers', async () => {
    await storeDocument(JSON.stringify([original('img-a', true)]));
    const { results } = await searchPublicProperties({ redis, queueSuffix }, { q: 'harbour' });
    const images = results[0]!.images;
    expect(() => {
      (images[0] as { url: string }).url = 'https://elsewhere.example/x.jpg';
    }).toThrow(TypeError);
    expect(() => (images as unknown[]).push(original('img-z', false))).toThrow(TypeError);
    const again = await searchPublicProperties({ redis, queueSuffix }, { q: 'harbour' });
    expect(again.results[0]!.images[0]!.url).toBe('/api/public/images/img-a/content');
  });
});

describe('public search when Redis goes away under it', () => {
  it('fails instead of answering the documents it could not read as gone', async () => {
    await storeDocument(JSON.stringify([original('img-a', true)]));
    // The api's kind of connection, lost right after the index was read.
    const producer = createRedis(process.env.VALKEY_URL ?? 'redis://127.0.0.1:6379', { role: 'producer', onError: () => {} });
    await waitForRedis(producer);
    const lostAfterIndex = new Proxy(producer, {
      get(target, property) {
        if (property === 'smembers') {
          return async (key: string) => {
            const ids = await target.smembers(key);
            target.disconnect();
            return ids;
          };
        }
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const failure = await searchPublicProperties({ redis: lostAfterIndex, queueSuffix }, { q: 'harbour' }).then(
      () => 'answered',
      (error: unknown) => error,
    );
    expect(isRedisUnavailable(failure)).toBe(true);
  });
});

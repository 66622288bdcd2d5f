import { randomUUID } from 'node:crypto';
import { createOriginalImage, createProperty, createStagedImage } from '@staging/db/testing/factories';
import { rebuildSearchDocument } from '@staging/services/search/build-search-document';
import { startApi, stopS3 } from './support/api-test-kit';
import type { ApiHarness } from './support/api-test-kit';
import { startSearchIndexing } from './support/search-indexing';
import type { SearchIndexing } from './support/search-indexing';
import { call, imageBytes, seedActors, seedListing, trpc } from './support/fixtures';
import type { Actors, Listing } from './support/fixtures';

const LABEL = 'AI · Virtually staged';

interface PublicImage {
  id: string;
  url: string;
  isStyled: boolean;
  isCover: boolean;
  label: string | null;
  originalImageId: string | null;
  originalUrl: string | null;
}
interface PublicProperty {
  id: string;
  coverImage: PublicImage | null;
  images: PublicImage[];
}

let api: ApiHarness;
let actors: Actors;
let searchIndexing: SearchIndexing;

beforeAll(async () => {
  api = await startApi();
  actors = await seedActors(api.db);
  searchIndexing = startSearchIndexing(api, 'api-test-search-worker');
});
afterAll(async () => {
  await searchIndexing.close();
  await api.close();
  await stopS3();
});

async function publicProperty(propertyId: string): Promise<{ status: number; body: { property: PublicProperty }; text: string }> {
  const response = await call(`${api.url}/api/public/properties/${propertyId}`);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as { property: PublicProperty }, text };
}

async function searchImages(propertyId: string): Promise<{ id: string; isStyled: boolean; isCover: boolean }[]> {
  const json = await api.redis.hget(`psearch:property:${propertyId}`, 'images');
  if (json === null) throw new Error(`no search document for ${propertyId}`);
  return JSON.parse(json) as { id: string; isStyled: boolean; isCover: boolean }[];
}

function expectPublicShape(property: PublicProperty, listing: Listing): void {
  const ids = property.images.map((image) => image.id).sort();
  expect(ids).toEqual([listing.cover.id, listing.original.id, listing.approved.id].sort());
  const staged = property.images.find((image) => image.id === listing.approved.id)!;
  expect(staged).toMatchObject({
    isStyled: true,
    isCover: false,
    label: LABEL,
    originalImageId: listing.original.id,
    originalUrl: `/api/public/images/${listing.original.id}/content`,
    url: `/api/public/images/${listing.approved.id}/content`,
  });
  for (const original of property.images.filter((image) => !image.isStyled)) {
    expect(original).toMatchObject({ label: null, originalImageId: null, originalUrl: null });
  }
  expect(property.coverImage?.id).toBe(listing.cover.id);
  expect(property.coverImage?.isStyled).toBe(false);
}

describe('public listing surfaces', () => {
  it('shows originals and APPROVED variants with label and original link; PENDING_REVIEW nowhere', async () => {
    const listing = await seedListing(api.db, api.storage, actors);
    const { status, body, text } = await publicProperty(listing.propertyId);
    expect(status).toBe(200);
    expectPublicShape(body.property, listing);
    expect(text).not.toContain(listing.pending.id);

    const viaTrpc = await trpc(api.url, 'query', 'public.getProperty', { propertyId: listing.propertyId });
    expect(viaTrpc.status).toBe(200);
    expect(viaTrpc.body.result?.data).toEqual(body.property);
    expect(JSON.stringify(viaTrpc.body)).not.toContain(listing.pending.id);
  });

  it('serves only originals and APPROVED variants on the public content route', async () => {
    const listing = await seedListing(api.db, api.storage, actors);
    for (const image of [listing.cover, listing.original, listing.approved]) {
      const response = await call(`${api.url}/api/public/images/${image.id}/content`);
      expect(response.status).toBe(200);
      // The display derivative (metadata stripped), never the stored bytes.
      expect(response.headers.get('content-type')).toBe('image/webp');
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    for (const id of [listing.pending.id, randomUUID(), 'not an id']) {
      const response = await call(`${api.url}/api/public/images/${encodeURIComponent(id)}/content`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Image not found' } });
    }
    // Even a session does not open the public route to a pending variant.
    const withCookie = await call(`${api.url}/api/public/images/${listing.pending.id}/content`, { cookie: actors.cookies.owner });
    expect(withCookie.status).toBe(404);
  });

  it('publishes a variant once approved, with label and original link', async () => {
    const listing = await seedListing(api.db, api.storage, actors);
    const approve = await trpc(api.url, 'mutation', 'ai.approveStagedVariant', { imageId: listing.pending.id }, actors.cookies.owner);
    expect(approve.status).toBe(200);
    const { body } = await publicProperty(listing.propertyId);
    const published = body.property.images.find((image) => image.id === listing.pending.id);
    expect(published).toMatchObject({ isStyled: true, isCover: false, label: LABEL, originalImageId: listing.original.id });
    expect((await call(`${api.url}/api/public/images/${listing.pending.id}/content`)).status).toBe(200);
  });

  it('never makes a staged image the cover, even first in order and without any isMain original', async () => {
    const property = await createProperty(api.db, { ownerAgentId: actors.owner.id });
    const original = await createOriginalImage(api.db, { propertyId: property.id, displayOrder: 5 });
    const staged = await createStagedImage(api.db, { original, reviewStatus: 'APPROVED', reviewedByUserId: actors.owner.id });
    await api.db.propertyImage.update({ where: { id: staged.id }, data: { displayOrder: 0 } });
    const { body } = await publicProperty(property.id);
    expect(body.property.images[0]?.id).toBe(staged.id);
    expect(body.property.coverImage?.id).toBe(original.id);
    expect(body.property.images.filter((image) => image.isCover).map((image) => image.id)).toEqual([original.id]);

    await rebuildSearchDocument(api.db, api.redis, property.id, { queueSuffix: api.config.queueSuffix });
    expect(await api.redis.hget(`psearch:property:${property.id}`, 'coverImageId')).toBe(original.id);
  });

  it('answers 404 for an unknown or malformed property, and 405 for other methods', async () => {
    expect((await call(`${api.url}/api/public/properties/${randomUUID()}`)).status).toBe(404);
    expect((await call(`${api.url}/api/public/properties/%00bad`)).status).toBe(404);
    expect((await call(`${api.url}/api/public/properties/${randomUUID()}`, { method: 'POST' })).status).toBe(405);
  });
});

describe('search documents and public search', () => {
  it('writes psearch:property:<id> with isStyled per image, after approval and rejection', async () => {
    const word = `zq${randomUUID().slice(0, 8)}`;
    const listing = await seedListing(api.db, api.storage, actors, `Sunny loft ${word}`);
    // An image change queues the rebuild; the worker's consumer writes the hash.
    const uploaded = new FormData();
    uploaded.append('file', new Blob([new Uint8Array(await imageBytes('png'))]), 'p.png');
    const upload = await call(`${api.url}/api/properties/${listing.propertyId}/images`, { method: 'POST', cookie: actors.cookies.owner, body: uploaded });
    expect(upload.status).toBe(201);
    const uploadedId = ((await upload.json()) as { image: { id: string } }).image.id;
    await searchIndexing.drain();

    const images = await searchImages(listing.propertyId);
    expect(images.map((image) => [image.id, image.isStyled]).sort()).toEqual(
      [
        [listing.cover.id, false],
        [listing.original.id, false],
        [listing.approved.id, true],
      ].sort(),
    );
    expect(JSON.stringify(images)).not.toContain(listing.pending.id);
    // New photos wait for the agent's decision (the property's newImagesPublic is false).
    expect(JSON.stringify(images)).not.toContain(uploadedId);
    expect(images.filter((image) => image.isCover).map((image) => image.id)).toEqual([listing.cover.id]);
    expect(await api.redis.hget(`psearch:property:${listing.propertyId}`, 'title')).toBe(`Sunny loft ${word}`);

    const search = await call(`${api.url}/api/public/search?q=${word.toUpperCase()}`);
    expect(search.status).toBe(200);
    const result = (await search.json()) as { total: number; results: { id: string; images: PublicImage[]; coverImage: PublicImage }[] };
    expect(result.total).toBe(1);
    expect(result.results[0]?.id).toBe(listing.propertyId);
    expect(result.results[0]?.coverImage.id).toBe(listing.cover.id);
    const stagedHit = result.results[0]?.images.find((image) => image.isStyled);
    expect(stagedHit).toMatchObject({ id: listing.approved.id, label: LABEL, originalImageId: listing.original.id });

    const viaTrpc = await trpc(api.url, 'query', 'public.search', { q: word });
    expect(viaTrpc.body.result?.data).toEqual({ ...result, query: word });

    await trpc(api.url, 'mutation', 'ai.approveStagedVariant', { imageId: listing.pending.id }, actors.cookies.owner);
    await searchIndexing.drain();
    expect((await searchImages(listing.propertyId)).find((image) => image.id === listing.pending.id)?.isStyled).toBe(true);

    await trpc(api.url, 'mutation', 'ai.rejectStagedVariant', { imageId: listing.approved.id }, actors.cookies.owner);
    await searchIndexing.drain();
    expect((await searchImages(listing.propertyId)).some((image) => image.id === listing.approved.id)).toBe(false);
  });

  it('drops a deleted property from the document set and the results', async () => {
    const word = `zd${randomUUID().slice(0, 8)}`;
    const listing = await seedListing(api.db, api.storage, actors, `Gone ${word}`);
    await rebuildSearchDocument(api.db, api.redis, listing.propertyId, { queueSuffix: api.config.queueSuffix });
    expect(((await (await call(`${api.url}/api/public/search?q=${word}`)).json()) as { total: number }).total).toBe(1);
    await api.db.property.delete({ where: { id: listing.propertyId } });
    expect(await rebuildSearchDocument(api.db, api.redis, listing.propertyId, { queueSuffix: api.config.queueSuffix })).toBe('removed');
    expect(((await (await call(`${api.url}/api/public/search?q=${word}`)).json()) as { total: number }).total).toBe(0);
    expect(await api.redis.hget(`psearch:property:${listing.propertyId}`, 'images')).toBeNull();
  });

  it('keeps the newer document when an older rebuild finishes last', async () => {
    const listing = await seedListing(api.db, api.storage, actors);
    const t = Date.now();
    await rebuildSearchDocument(api.db, api.redis, listing.propertyId, { queueSuffix: api.config.queueSuffix, now: () => new Date(t + 1000) });
    await api.db.propertyImage.update({ where: { id: listing.pending.id }, data: { reviewStatus: 'APPROVED' } });
    const stale = await rebuildSearchDocument(api.db, api.redis, listing.propertyId, { queueSuffix: api.config.queueSuffix, now: () => new Date(t) });
    expect(stale).toBe('superseded');
    expect((await searchImages(listing.propertyId)).some((image) => image.id === listing.pending.id)).toBe(false);
  });

  it('refuses malformed queries with 400', async () => {
    for (const query of ['limit=0', 'limit=abc', 'limit=51', `q=${'x'.repeat(201)}`, 'q=a&q=b']) {
      const response = await call(`${api.url}/api/public/search?${query}`);
      expect(response.status).toBe(400);
    }
  });
});

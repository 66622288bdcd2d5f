import { randomUUID } from 'node:crypto';
import { createProperty } from '@staging/db/testing/factories';
import { enqueueSearchRebuild } from '@staging/services/search/search-queue';
import { startApi, stopS3 } from './support/api-test-kit';
import type { ApiHarness } from './support/api-test-kit';
import { startSearchIndexing } from './support/search-indexing';
import type { SearchIndexing } from './support/search-indexing';
import { call, imageBytes, seedActors, seedListing, trpc } from './support/fixtures';
import type { Actors, Listing } from './support/fixtures';

interface PublicImage {
  id: string;
  isStyled: boolean;
  isCover: boolean;
}

let api: ApiHarness;
let actors: Actors;
let searchIndexing: SearchIndexing;

beforeAll(async () => {
  api = await startApi();
  actors = await seedActors(api.db);
  searchIndexing = startSearchIndexing(api, 'api-test-public-page-worker');
});
afterAll(async () => {
  await searchIndexing.close();
  await api.close();
  await stopS3();
});

/** A seeded listing with its search document built, as a listing already on the public page has. */
async function publishedListing(title?: string): Promise<Listing> {
  const listing = await seedListing(api.db, api.storage, actors, title);
  await enqueueSearchRebuild(api.searchQueue, listing.propertyId);
  return listing;
}

async function mutate(path: string, input: unknown, cookie: string = actors.cookies.owner) {
  return trpc(api.url, 'mutation', path, input, cookie);
}

/** What every anonymous surface shows of the listing, after the search rebuilds ran. */
async function publicView(listing: Listing) {
  await searchIndexing.drain();
  const rest = (await (await call(`${api.url}/api/public/properties/${listing.propertyId}`)).json()) as {
    property: { coverImage: PublicImage | null; images: PublicImage[] };
  };
  const viaTrpc = await trpc(api.url, 'query', 'public.getProperty', { propertyId: listing.propertyId });
  expect(viaTrpc.body.result?.data).toEqual(rest.property);
  const searchImages = JSON.parse((await api.redis.hget(`psearch:property:${listing.propertyId}`, 'images')) ?? '[]') as PublicImage[];
  const coverInSearch = await api.redis.hget(`psearch:property:${listing.propertyId}`, 'coverImageId');
  expect(searchImages).toEqual(rest.property.images);
  expect(coverInSearch).toBe(rest.property.coverImage?.id ?? '');
  return { ids: rest.property.images.map((image) => image.id).sort(), coverId: rest.property.coverImage?.id ?? null };
}

async function publicStatuses(imageId: string): Promise<number[]> {
  return Promise.all(
    ['content', 'derivatives/display', 'derivatives/thumb'].map(async (suffix) => (await call(`${api.url}/api/public/images/${imageId}/${suffix}`)).status),
  );
}

describe('property.setImagePublic', () => {
  it('takes a hidden original and its approved variant off every anonymous surface, and puts them back', async () => {
    const word = `zq${randomUUID().slice(0, 8)}`;
    const listing = await publishedListing(`Harbour loft ${word}`);
    expect((await publicView(listing)).ids).toEqual([listing.cover.id, listing.original.id, listing.approved.id].sort());

    const hide = await mutate('property.setImagePublic', { imageId: listing.original.id, isPublic: false });
    expect(hide.status).toBe(200);
    expect(hide.body.result?.data).toMatchObject({ id: listing.original.id, isPublic: false, isStyled: false });
    expect((await publicView(listing)).ids).toEqual([listing.cover.id]);
    expect(await publicStatuses(listing.original.id)).toEqual([404, 404, 404]);
    expect(await publicStatuses(listing.approved.id)).toEqual([404, 404, 404]);
    const search = (await (await call(`${api.url}/api/public/search?q=${word}`)).json()) as {
      results: { id: string; images: PublicImage[] }[];
    };
    expect(search.results.map((result) => result.id)).toEqual([listing.propertyId]);
    expect(search.results[0]?.images.map((image) => image.id)).toEqual([listing.cover.id]);

    // The agent still has it, with its variants, and can still open it.
    const agentView = await trpc(api.url, 'query', 'property.get', { propertyId: listing.propertyId }, actors.cookies.assigned);
    const images = (agentView.body.result?.data as { images: { id: string; isPublic: boolean | null }[] }).images;
    expect(images.find((image) => image.id === listing.original.id)?.isPublic).toBe(false);
    expect(images.find((image) => image.id === listing.approved.id)?.isPublic).toBeNull();
    expect((await call(`${api.url}/api/property-images/${listing.original.id}/content`, { cookie: actors.cookies.owner })).status).toBe(200);

    await mutate('property.setImagePublic', { imageId: listing.original.id, isPublic: true }, actors.cookies.assigned);
    expect((await publicView(listing)).ids).toEqual([listing.cover.id, listing.original.id, listing.approved.id].sort());
    expect(await publicStatuses(listing.approved.id)).toEqual([200, 200, 200]);
  });

  it('unchooses a cover it hides, so the listing falls back to its first public photo', async () => {
    const listing = await publishedListing();
    expect((await publicView(listing)).coverId).toBe(listing.cover.id);
    await mutate('property.setImagePublic', { imageId: listing.cover.id, isPublic: false });
    expect((await api.db.propertyImage.findUniqueOrThrow({ where: { id: listing.cover.id } })).isMain).toBe(false);
    expect((await publicView(listing)).coverId).toBe(listing.original.id);
    // Shown again it is a photo like any other: the agent chooses the cover again if they want it.
    await mutate('property.setImagePublic', { imageId: listing.cover.id, isPublic: true });
    expect((await publicView(listing)).coverId).toBe(listing.cover.id);
    expect((await api.db.propertyImage.findUniqueOrThrow({ where: { id: listing.cover.id } })).isMain).toBe(false);
  });

  it('refuses a staged image and invalid input with the usual error shapes', async () => {
    const listing = await publishedListing();
    const staged = await mutate('property.setImagePublic', { imageId: listing.approved.id, isPublic: false });
    expect(staged.status).toBe(400);
    expect(staged.body.error?.data).toMatchObject({ code: 'BAD_REQUEST', appCode: 'BAD_REQUEST', issues: [{ path: ['imageId'] }] });

    const invalid = await mutate('property.setImagePublic', { imageId: listing.original.id, isPublic: 'no' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error?.data).toMatchObject({ appCode: 'BAD_REQUEST', issues: [expect.objectContaining({ path: ['isPublic'] })] });
    const extra = await mutate('property.setImagePublic', { imageId: listing.original.id, isPublic: false, isMain: true });
    expect(extra.status).toBe(400);
    // Nothing changed by the refused calls.
    expect((await api.db.propertyImage.findUniqueOrThrow({ where: { id: listing.original.id } })).isPublic).toBe(true);

    const foreign = await mutate('property.setImagePublic', { imageId: listing.original.id, isPublic: false }, actors.cookies.unrelated);
    const missing = await mutate('property.setImagePublic', { imageId: '00000000-0000-4000-8000-000000000000', isPublic: false }, actors.cookies.unrelated);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toEqual(missing.body.error);
    expect((await api.db.propertyImage.findUniqueOrThrow({ where: { id: listing.original.id } })).isPublic).toBe(true);
  });
});

describe('property.setCover', () => {
  it('chooses the cover among the public originals, or clears the choice', async () => {
    const listing = await publishedListing();
    const chosen = await mutate('property.setCover', { propertyId: listing.propertyId, imageId: listing.original.id });
    expect(chosen.status).toBe(200);
    expect(chosen.body.result?.data).toEqual({ coverImageId: listing.original.id });
    expect((await publicView(listing)).coverId).toBe(listing.original.id);
    expect(await api.db.propertyImage.count({ where: { propertyId: listing.propertyId, isMain: true } })).toBe(1);

    const cleared = await mutate('property.setCover', { propertyId: listing.propertyId, imageId: null });
    // No choice: the first public original in gallery order, as before covers could be chosen.
    expect(cleared.body.result?.data).toEqual({ coverImageId: listing.cover.id });
    expect(await api.db.propertyImage.count({ where: { propertyId: listing.propertyId, isMain: true } })).toBe(0);
    expect((await publicView(listing)).coverId).toBe(listing.cover.id);
  });

  it('refuses a staged image, a hidden photo and a photo of another listing', async () => {
    const listing = await publishedListing();
    const staged = await mutate('property.setCover', { propertyId: listing.propertyId, imageId: listing.approved.id });
    expect(staged.status).toBe(400);
    expect(staged.body.error?.data).toMatchObject({ appCode: 'STAGED_IMAGE_CANNOT_BE_COVER', issues: [{ path: ['imageId'] }] });

    await mutate('property.setImagePublic', { imageId: listing.original.id, isPublic: false });
    const hidden = await mutate('property.setCover', { propertyId: listing.propertyId, imageId: listing.original.id });
    expect(hidden.status).toBe(400);
    expect(hidden.body.error?.data).toMatchObject({ appCode: 'BAD_REQUEST', issues: [{ path: ['imageId'] }] });
    // The image route's cover flag follows the same rule.
    const patched = await call(`${api.url}/api/property-images/${listing.original.id}`, { method: 'PATCH', json: { isMain: true }, cookie: actors.cookies.owner });
    expect(patched.status).toBe(400);
    expect(await patched.json()).toMatchObject({ error: { code: 'BAD_REQUEST' } });

    const other = await publishedListing();
    const elsewhere = await mutate('property.setCover', { propertyId: listing.propertyId, imageId: other.original.id });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error?.message).toBe('Image not found');

    expect((await api.db.propertyImage.findUniqueOrThrow({ where: { id: listing.cover.id } })).isMain).toBe(true);
    expect((await publicView(listing)).coverId).toBe(listing.cover.id);
    expect((await publicView(other)).coverId).toBe(other.cover.id);
  });
});

describe('property.setNewImagesPublic', () => {
  async function upload(propertyId: string): Promise<{ id: string; isPublic: boolean }> {
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(await imageBytes('jpeg'))]), 'new.jpg');
    const response = await call(`${api.url}/api/properties/${propertyId}/images`, { method: 'POST', body, cookie: actors.cookies.owner });
    expect(response.status).toBe(201);
    return ((await response.json()) as { image: { id: string; isPublic: boolean } }).image;
  }

  it('decides whether an upload is public at once; photos already there keep their own switch', async () => {
    const listing = await publishedListing();
    const before = await trpc(api.url, 'query', 'property.get', { propertyId: listing.propertyId }, actors.cookies.owner);
    expect(before.body.result?.data).toMatchObject({ newImagesPublic: false });

    const hiddenUpload = await upload(listing.propertyId);
    expect(hiddenUpload.isPublic).toBe(false);
    expect((await publicView(listing)).ids).not.toContain(hiddenUpload.id);
    expect(await publicStatuses(hiddenUpload.id)).toEqual([404, 404, 404]);

    const set = await mutate('property.setNewImagesPublic', { propertyId: listing.propertyId, newImagesPublic: true }, actors.cookies.admin);
    expect(set.status).toBe(200);
    expect(set.body.result?.data).toEqual({ propertyId: listing.propertyId, newImagesPublic: true });
    expect((await api.db.propertyImage.findUniqueOrThrow({ where: { id: hiddenUpload.id } })).isPublic).toBe(false);

    const publicUpload = await upload(listing.propertyId);
    expect(publicUpload.isPublic).toBe(true);
    expect((await publicView(listing)).ids).toEqual([listing.cover.id, listing.original.id, listing.approved.id, publicUpload.id].sort());
    const after = await trpc(api.url, 'query', 'property.get', { propertyId: listing.propertyId }, actors.cookies.owner);
    expect(after.body.result?.data).toMatchObject({ newImagesPublic: true });
  });

  it('is NOT_FOUND for a listing the caller may not manage, which keeps its value', async () => {
    const property = await createProperty(api.db, { ownerAgentId: actors.unrelated.id, newImagesPublic: true });
    const refused = await mutate('property.setNewImagesPublic', { propertyId: property.id, newImagesPublic: false });
    expect(refused.status).toBe(404);
    expect(refused.body.error?.data).toMatchObject({ appCode: 'NOT_FOUND' });
    expect((await api.db.property.findUniqueOrThrow({ where: { id: property.id } })).newImagesPublic).toBe(true);
  });
});

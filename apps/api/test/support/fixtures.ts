import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Db, PropertyImage } from '@staging/db/client';
import { createOriginalImage, createProperty, createStagedImage, createUser } from '@staging/db/testing/factories';
import type { SeededUser } from '@staging/db/testing/factories';
import type { ObjectStorage } from '@staging/platform/storage';
import { sessionCookie, startApi, stopS3 } from './api-test-kit';
import type { ApiHarness } from './api-test-kit';

export async function imageBytes(format: 'jpeg' | 'png' | 'webp', width = 96, height = 64): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 120, g: 90, b: 60 } } })
    .toFormat(format)
    .toBuffer();
}

export interface Actors {
  owner: SeededUser;
  assigned: SeededUser;
  unrelated: SeededUser;
  admin: SeededUser;
  cookies: { owner: string; assigned: string; unrelated: string; admin: string };
}

export async function seedActors(db: Db): Promise<Actors> {
  const [owner, assigned, unrelated, admin] = await Promise.all([
    createUser(db),
    createUser(db),
    createUser(db),
    createUser(db, { role: 'ADMIN' }),
  ]);
  const [ownerCookie, assignedCookie, unrelatedCookie, adminCookie] = await Promise.all(
    [owner, assigned, unrelated, admin].map((user) => sessionCookie(db, user.id)),
  );
  return {
    owner,
    assigned,
    unrelated,
    admin,
    cookies: { owner: ownerCookie!, assigned: assignedCookie!, unrelated: unrelatedCookie!, admin: adminCookie! },
  };
}

export interface ApiTestContext extends ApiHarness {
  actors: Actors;
}

/**
 * Registers the lifecycle most api test files share: one app and one set of signed-in actors per
 * file, then the file's s3rver stopped. The hooks fill the returned object; read it inside tests.
 */
export function useApiTestContext(): ApiTestContext {
  const api = {} as ApiTestContext;
  beforeAll(async () => {
    Object.assign(api, await startApi());
    api.actors = await seedActors(api.db);
  });
  afterAll(async () => {
    await api.close();
    await stopS3();
  });
  return api;
}

export interface Listing {
  propertyId: string;
  original: PropertyImage;
  /** A second original, the cover. */
  cover: PropertyImage;
  pending: PropertyImage;
  approved: PropertyImage;
}

/**
 * A property of `actors.owner` (with `actors.assigned` assigned) holding two stored originals
 * (one the cover), a PENDING_REVIEW and an APPROVED staged variant, all with real objects.
 */
export async function seedListing(db: Db, storage: ObjectStorage, actors: Actors, title?: string): Promise<Listing> {
  const property = await createProperty(db, {
    ownerAgentId: actors.owner.id,
    assignedAgentIds: [actors.assigned.id],
    ...(title === undefined ? {} : { title }),
  });
  const key = (kind: string) => `${kind}/${property.id}/${randomUUID()}.jpg`;
  const cover = await createOriginalImage(db, { propertyId: property.id, isMain: true, objectKey: key('originals'), displayOrder: 0 });
  const original = await createOriginalImage(db, { propertyId: property.id, objectKey: key('originals'), displayOrder: 1 });
  const pending = await createStagedImage(db, { original, canonicalStyle: 'MODERN', objectKey: key('staged') });
  const approved = await createStagedImage(db, {
    original,
    canonicalStyle: 'COASTAL',
    reviewStatus: 'APPROVED',
    reviewedByUserId: actors.owner.id,
    objectKey: key('staged'),
  });
  const bytes = await imageBytes('jpeg');
  await Promise.all([cover, original, pending, approved].map((image) => storage.putObject(image.objectKey, bytes, 'image/jpeg')));
  return { propertyId: property.id, original, cover, pending, approved };
}

/** fetch with a cookie and JSON body; never follows redirects so a 3xx stays visible. */
export async function call(
  url: string,
  init: { method?: string; cookie?: string; json?: unknown; body?: RequestInit['body']; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.cookie !== undefined) headers['cookie'] = init.cookie;
  let body = init.body;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  }
  return fetch(url, { method: init.method ?? 'GET', headers, redirect: 'manual', ...(body === undefined ? {} : { body }) });
}

/** Calls a tRPC procedure over HTTP the way any JSON client would (no transformer). */
export async function trpc(
  baseUrl: string,
  type: 'query' | 'mutation',
  path: string,
  input: unknown,
  cookie?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { result?: { data: unknown }; error?: { message: string; code: number; data: { code: string; appCode: string; httpStatus: number } } } }> {
  const url = `${baseUrl}/api/trpc/${path}`;
  const response =
    type === 'query'
      ? await call(`${url}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`, {
          ...(cookie === undefined ? {} : { cookie }),
          headers,
        })
      : await call(url, { method: 'POST', ...(cookie === undefined ? {} : { cookie }), headers, json: input ?? null });
  return { status: response.status, body: (await response.json()) as never };
}

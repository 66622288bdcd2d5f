import { randomUUID } from 'node:crypto';
import { createStagingJob } from '@staging/db/testing/factories';
import { enqueueStagingJob } from '@staging/services/staging/staging-queue';
import { call, imageBytes, seedListing, trpc, useApiTestContext } from './support/fixtures';
import type { Listing } from './support/fixtures';

type Who = 'anonymous' | 'owner' | 'assigned' | 'unrelated' | 'admin';
const WHO: readonly Who[] = ['anonymous', 'owner', 'assigned', 'unrelated', 'admin'];

const api = useApiTestContext();

interface Ctx {
  listing: Listing;
  cookie: string | undefined;
}

/** One route or procedure: what it does and what each kind of caller gets. */
interface Operation {
  name: string;
  run(ctx: Ctx): Promise<string>;
  expected: Record<Who, string>;
}

function statusOf(response: Response | { status: number }): string {
  return String(response.status);
}

function row(anonymous: string, owner: string, assigned: string, unrelated: string, admin: string): Record<Who, string> {
  return { anonymous, owner, assigned, unrelated, admin };
}

function cookieOpt(cookie: string | undefined): { cookie?: string } {
  return cookie === undefined ? {} : { cookie };
}

async function pendingJob(listing: Listing): Promise<string> {
  const job = await createStagingJob(api.db, { original: listing.original, attempts: [{ status: 'RESERVED' }] });
  await enqueueStagingJob(api.stagingQueue, job.id);
  return job.id;
}

const OPERATIONS: Operation[] = [
  {
    name: 'POST /api/properties/:propertyId/images',
    run: async ({ listing, cookie }) => {
      const body = new FormData();
      body.append('file', new Blob([new Uint8Array(await imageBytes('jpeg'))]), 'p.jpg');
      return statusOf(await call(`${api.url}/api/properties/${listing.propertyId}/images`, { method: 'POST', body, ...cookieOpt(cookie) }));
    },
    expected: row('401', '201', '201', '404', '201'),
  },
  {
    name: 'PATCH /api/property-images/:id (original)',
    run: async ({ listing, cookie }) =>
      statusOf(await call(`${api.url}/api/property-images/${listing.original.id}`, { method: 'PATCH', json: { isMain: true }, ...cookieOpt(cookie) })),
    expected: row('401', '200', '200', '404', '200'),
  },
  {
    name: 'PATCH /api/property-images/:id (staged, isMain true)',
    run: async ({ listing, cookie }) =>
      statusOf(await call(`${api.url}/api/property-images/${listing.approved.id}`, { method: 'PATCH', json: { isMain: true }, ...cookieOpt(cookie) })),
    expected: row('401', '400', '400', '404', '400'),
  },
  {
    name: 'DELETE /api/property-images/:id (original)',
    run: async ({ listing, cookie }) =>
      statusOf(await call(`${api.url}/api/property-images/${listing.original.id}`, { method: 'DELETE', ...cookieOpt(cookie) })),
    expected: row('401', '204', '204', '404', '204'),
  },
  {
    name: 'DELETE /api/property-images/:id (staged)',
    run: async ({ listing, cookie }) =>
      statusOf(await call(`${api.url}/api/property-images/${listing.pending.id}`, { method: 'DELETE', ...cookieOpt(cookie) })),
    expected: row('401', '400', '400', '404', '400'),
  },
  {
    name: 'GET /api/property-images/:id/content (pending variant)',
    run: async ({ listing, cookie }) => statusOf(await call(`${api.url}/api/property-images/${listing.pending.id}/content`, cookieOpt(cookie))),
    expected: row('401', '200', '200', '404', '200'),
  },
  {
    name: 'GET /api/auth/me',
    run: async ({ cookie }) => statusOf(await call(`${api.url}/api/auth/me`, cookieOpt(cookie))),
    expected: row('401', '200', '200', '200', '200'),
  },
  {
    name: 'GET /api/public/properties/:id',
    run: async ({ listing, cookie }) => statusOf(await call(`${api.url}/api/public/properties/${listing.propertyId}`, cookieOpt(cookie))),
    expected: row('200', '200', '200', '200', '200'),
  },
  {
    name: 'GET /api/public/search',
    run: async ({ cookie }) => statusOf(await call(`${api.url}/api/public/search?q=listing`, cookieOpt(cookie))),
    expected: row('200', '200', '200', '200', '200'),
  },
  {
    name: 'GET /api/public/images/:id/content (approved | pending)',
    run: async ({ listing, cookie }) => {
      const approved = await call(`${api.url}/api/public/images/${listing.approved.id}/content`, cookieOpt(cookie));
      const pending = await call(`${api.url}/api/public/images/${listing.pending.id}/content`, cookieOpt(cookie));
      return `${approved.status}|${pending.status}`;
    },
    expected: row('200|404', '200|404', '200|404', '200|404', '200|404'),
  },
  {
    name: 'POST /api/webhooks/provider/staging/:id (unsigned)',
    run: async ({ cookie }) =>
      statusOf(await call(`${api.url}/api/webhooks/provider/staging/${randomUUID()}`, { method: 'POST', json: { id: 'x', status: 'succeeded' }, ...cookieOpt(cookie) })),
    expected: row('401', '401', '401', '401', '401'),
  },
  {
    name: 'property.list',
    run: async ({ listing, cookie }) => {
      const response = await trpc(api.url, 'query', 'property.list', { limit: 100 }, cookie);
      if (response.status !== 200) return statusOf(response);
      const items = (response.body.result?.data as { items: { id: string }[] }).items;
      return items.some((item) => item.id === listing.propertyId) ? '200 listed' : '200 absent';
    },
    expected: row('401', '200 listed', '200 listed', '200 absent', '200 listed'),
  },
  {
    name: 'property.get',
    run: async ({ listing, cookie }) => statusOf(await trpc(api.url, 'query', 'property.get', { propertyId: listing.propertyId }, cookie)),
    expected: row('401', '200', '200', '404', '200'),
  },
  {
    name: 'property.setImagePublic',
    run: async ({ listing, cookie }) =>
      statusOf(await trpc(api.url, 'mutation', 'property.setImagePublic', { imageId: listing.original.id, isPublic: false }, cookie)),
    expected: row('401', '200', '200', '404', '200'),
  },
  {
    name: 'property.setCover',
    run: async ({ listing, cookie }) =>
      statusOf(await trpc(api.url, 'mutation', 'property.setCover', { propertyId: listing.propertyId, imageId: listing.original.id }, cookie)),
    expected: row('401', '200', '200', '404', '200'),
  },
  {
    name: 'property.setNewImagesPublic',
    run: async ({ listing, cookie }) =>
      statusOf(await trpc(api.url, 'mutation', 'property.setNewImagesPublic', { propertyId: listing.propertyId, newImagesPublic: true }, cookie)),
    expected: row('401', '200', '200', '404', '200'),
  },
  {
    name: 'ai.submitStaging',
    run: async ({ listing, cookie }) =>
      statusOf(
        await trpc(
          api.url,
          'mutation',
          'ai.submitStaging',
          { assignments: [{ originalImageId: listing.original.id, roomType: 'BEDROOM', style: 'MID_CENTURY' }] },
          cookie,
        ),
      ),
    expected: row('401', '200', '200', '404', '200'),
  },
  {
    name: 'ai.cancelStaging',
    run: async ({ listing, cookie }) => statusOf(await trpc(api.url, 'mutation', 'ai.cancelStaging', { aiJobId: await pendingJob(listing) }, cookie)),
    expected: row('401', '200', '200', '404', '200'),
  },
  {
    name: 'ai.getJob',
    run: async ({ listing, cookie }) => statusOf(await trpc(api.url, 'query', 'ai.getJob', { aiJobId: await pendingJob(listing) }, cookie)),
    expected: row('401', '200', '200', '404', '200'),
  },
  {
    name: 'ai.listJobs',
    run: async ({ listing, cookie }) => statusOf(await trpc(api.url, 'query', 'ai.listJobs', { propertyId: listing.propertyId }, cookie)),
    expected: row('401', '200', '200', '404', '200'),
  },
  {
    name: 'ai.approveStagedVariant',
    run: async ({ listing, cookie }) => statusOf(await trpc(api.url, 'mutation', 'ai.approveStagedVariant', { imageId: listing.pending.id }, cookie)),
    expected: row('401', '200', '200', '404', '404'),
  },
  {
    name: 'ai.rejectStagedVariant',
    run: async ({ listing, cookie }) => statusOf(await trpc(api.url, 'mutation', 'ai.rejectStagedVariant', { imageId: listing.pending.id }, cookie)),
    expected: row('401', '200', '200', '404', '404'),
  },
  {
    name: 'public.getProperty',
    run: async ({ listing, cookie }) => statusOf(await trpc(api.url, 'query', 'public.getProperty', { propertyId: listing.propertyId }, cookie)),
    expected: row('200', '200', '200', '200', '200'),
  },
  {
    name: 'public.search',
    run: async ({ cookie }) => statusOf(await trpc(api.url, 'query', 'public.search', { q: 'listing' }, cookie)),
    expected: row('200', '200', '200', '200', '200'),
  },
];

const CASES = OPERATIONS.flatMap((operation) => WHO.map((who) => [operation.name, who, operation] as const));

describe('authorization matrix: every route and procedure × every kind of caller', () => {
  it.each(CASES)('%s as %s', async (_name, who, operation) => {
    const listing = await seedListing(api.db, api.storage, api.actors);
    const cookie = who === 'anonymous' ? undefined : api.actors.cookies[who];
    expect(await operation.run({ listing, cookie })).toBe(operation.expected[who]);
  });

  it('gives an unrelated agent the same answer for a foreign image as for a missing one', async () => {
    const listing = await seedListing(api.db, api.storage, api.actors);
    for (const [method, suffix, json] of [
      ['PATCH', '', { displayOrder: 1 }],
      ['DELETE', '', undefined],
      ['GET', '/content', undefined],
    ] as const) {
      const foreign = await call(`${api.url}/api/property-images/${listing.pending.id}${suffix}`, {
        method,
        cookie: api.actors.cookies.unrelated,
        ...(json === undefined ? {} : { json }),
      });
      const missing = await call(`${api.url}/api/property-images/${randomUUID()}${suffix}`, {
        method,
        cookie: api.actors.cookies.unrelated,
        ...(json === undefined ? {} : { json }),
      });
      expect([foreign.status, await foreign.json()]).toEqual([missing.status, await missing.json()]);
    }
  });
});

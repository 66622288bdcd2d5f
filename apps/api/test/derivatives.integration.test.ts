import { randomUUID } from 'node:crypto';
import { Agent, get } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import sharp from 'sharp';
import { createOriginalImage, createProperty } from '@staging/db/testing/factories';
import { DERIVATIVE_SIZES, derivativeObjectKey } from '@staging/domain/image-derivatives';
import { WITHDRAWN_IMAGE_BOUND_SECONDS } from '@staging/http-edge/public-cache';
import { call, seedListing, trpc, useApiTestContext } from './support/fixtures';
import type { Listing } from './support/fixtures';

const api = useApiTestContext();

// The GPS IFD pointer tag (0x8825) as it appears in little-endian EXIF.
const GPS_IFD_POINTER = Buffer.from([0x25, 0x88]);

/** A 3:2 camera JPEG carrying an EXIF GPS position, as a phone writes it. */
async function jpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 90, g: 140, b: 200 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'ListingCam' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 26/1 4632/100', GPSLongitudeRef: 'W', GPSLongitude: '79/1 58/1 5612/100' },
    })
    .toBuffer();
}

function privateDerivative(imageId: string, size: string, cookie?: string, headers: Record<string, string> = {}): Promise<Response> {
  return call(`${api.url}/api/property-images/${encodeURIComponent(imageId)}/derivatives/${size}`, { headers, ...(cookie === undefined ? {} : { cookie }) });
}

function publicDerivative(imageId: string, size: string, headers: Record<string, string> = {}): Promise<Response> {
  return call(`${api.url}/api/public/images/${encodeURIComponent(imageId)}/derivatives/${size}`, { headers });
}

/**
 * The longest any cache may keep an answer under its Cache-Control: the larger of max-age and
 * s-maxage plus any stale allowance; a policy that sets no lifetime, or `immutable`, is unbounded.
 */
function cacheLifetimeSeconds(cacheControl: string | null): number {
  const directives = new Map(
    (cacheControl ?? '').split(',').map((part) => {
      const [name = '', value] = part.trim().toLowerCase().split('=');
      return [name, value === undefined ? NaN : Number(value)] as const;
    }),
  );
  if (directives.has('no-store') || directives.has('private')) return 0;
  if (directives.has('immutable')) return Infinity;
  const lifetimes = [directives.get('max-age'), directives.get('s-maxage')].filter((value): value is number => value !== undefined && !Number.isNaN(value));
  if (lifetimes.length === 0) return Infinity;
  const fresh = Math.max(...lifetimes);
  return fresh + (directives.get('stale-while-revalidate') ?? 0) + (directives.get('stale-if-error') ?? 0);
}

async function expectNoMetadata(bytes: Buffer): Promise<void> {
  const metadata = await sharp(bytes).metadata();
  expect(metadata.exif).toBeUndefined();
  expect(metadata.xmp).toBeUndefined();
  expect(bytes.includes(Buffer.from('ListingCam'))).toBe(false);
}

describe('image derivatives', () => {
  let listing: Listing;
  let gpsImageId: string;
  beforeAll(async () => {
    listing = await seedListing(api.db, api.storage, api.actors);
    const source = await jpegWithGps();
    const metadata = await sharp(source).metadata();
    // The fixture really carries a position, or the stripping assertions below prove nothing.
    expect(metadata.exif?.includes(GPS_IFD_POINTER)).toBe(true);
    const objectKey = `originals/${listing.propertyId}/${randomUUID()}.jpg`;
    await api.storage.putObject(objectKey, source, 'image/jpeg');
    gpsImageId = (await createOriginalImage(api.db, { propertyId: listing.propertyId, objectKey, displayOrder: 9 })).id;
  });

  it('renders a thumbnail once, stores it and answers with an ETag and private revalidation', async () => {
    const response = await privateDerivative(gpsImageId, 'thumb', api.actors.cookies.owner);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"v1-thumb-/);
    const bytes = Buffer.from(await response.arrayBuffer());
    const metadata = await sharp(bytes).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['webp', DERIVATIVE_SIZES.thumb.maxEdge, 320]);
    await expectNoMetadata(bytes);

    const row = await api.db.propertyImage.findUniqueOrThrow({ where: { id: gpsImageId } });
    expect((await api.storage.getObject(derivativeObjectKey(row.objectKey, 'thumb'))).equals(bytes)).toBe(true);

    const again = await privateDerivative(gpsImageId, 'thumb', api.actors.cookies.assigned, { 'if-none-match': etag ?? '' });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect((await again.arrayBuffer()).byteLength).toBe(0);

    const stale = await privateDerivative(gpsImageId, 'thumb', api.actors.cookies.owner, { 'if-none-match': '"v0-thumb-old"' });
    expect(stale.status).toBe(200);
  });

  it('keeps private images private, also for a request that only revalidates', async () => {
    const first = await privateDerivative(listing.pending.id, 'thumb', api.actors.cookies.owner);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag') ?? '';
    const revalidating = { 'if-none-match': etag };

    expect((await privateDerivative(listing.pending.id, 'thumb', undefined, revalidating)).status).toBe(401);
    const stranger = await privateDerivative(listing.pending.id, 'thumb', api.actors.cookies.unrelated, revalidating);
    const missing = await privateDerivative(randomUUID(), 'thumb', api.actors.cookies.unrelated);
    expect(stranger.status).toBe(404);
    expect(await stranger.json()).toEqual(await missing.json());
    expect(stranger.headers.get('etag')).toBeNull();
    // A pending variant has no public derivative, whatever the caller sends.
    expect((await publicDerivative(listing.pending.id, 'thumb', revalidating)).status).toBe(404);
    expect((await privateDerivative(listing.pending.id, 'huge', api.actors.cookies.owner)).status).toBe(404);
  });

  it('answers 304 to a matching ETag on public derivatives', async () => {
    const response = await publicDerivative(listing.approved.id, 'display');
    expect(response.status).toBe(200);
    const etag = response.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"v1-display-/);
    const revalidated = await publicDerivative(listing.approved.id, 'display', { 'if-none-match': `W/"other", ${etag}` });
    expect(revalidated.status).toBe(304);
  });

  it('lets no cache keep a taken-down variant longer than the bound, and its URLs answer 404 at once', async () => {
    const taken = await seedListing(api.db, api.storage, api.actors);
    const urls = [
      ...(['thumb', 'display'] as const).map((size) => `${api.url}/api/public/images/${taken.approved.id}/derivatives/${size}`),
      `${api.url}/api/public/images/${taken.approved.id}/content`,
    ];
    for (const url of urls) {
      const served = await call(url);
      expect(served.status).toBe(200);
      expect(cacheLifetimeSeconds(served.headers.get('cache-control'))).toBeLessThanOrEqual(WITHDRAWN_IMAGE_BOUND_SECONDS);
    }
    const takeDown = await trpc(api.url, 'mutation', 'ai.rejectStagedVariant', { imageId: taken.approved.id, reason: 'Wrong room' }, api.actors.cookies.owner);
    expect(takeDown.status).toBe(200);
    for (const url of urls) expect((await call(url)).status).toBe(404);
  });

  it('never lets EXIF GPS reach a public image: derivatives and the public content route', async () => {
    for (const size of ['thumb', 'display'] as const) {
      const response = await publicDerivative(gpsImageId, size);
      expect(response.status).toBe(200);
      await expectNoMetadata(Buffer.from(await response.arrayBuffer()));
    }
    const content = await call(`${api.url}/api/public/images/${gpsImageId}/content`);
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('image/webp');
    const bytes = Buffer.from(await content.arrayBuffer());
    await expectNoMetadata(bytes);
    // Display size keeps the photo whole: 1200×800 is within 2048, so not enlarged or cropped.
    const metadata = await sharp(bytes).metadata();
    expect([metadata.width, metadata.height]).toEqual([1200, 800]);
  });

  it('answers 404 when the stored source is gone (deletion in flight)', async () => {
    const property = await createProperty(api.db, { ownerAgentId: api.actors.owner.id });
    const image = await createOriginalImage(api.db, { propertyId: property.id, objectKey: `originals/${property.id}/${randomUUID()}.jpg` });
    expect((await privateDerivative(image.id, 'thumb', api.actors.cookies.owner)).status).toBe(404);
  });
});

describe('api security headers', () => {
  it.each([
    ['a JSON answer', () => call(`${api.url}/healthz`), 200],
    ['a 404 for an unknown path', () => call(`${api.url}/no/such/path`), 404],
    ['a 401', () => call(`${api.url}/api/property-images/${randomUUID()}/derivatives/thumb`), 401],
    ['a 405', () => call(`${api.url}/api/public/search`, { method: 'DELETE' }), 405],
    ['a malformed JSON body', () => call(`${api.url}/api/auth/login`, { method: 'POST', body: '{"email":', headers: { 'content-type': 'application/json' } }), 400],
    ['a public image 404', () => call(`${api.url}/api/public/images/${randomUUID()}/derivatives/thumb`), 404],
  ] as const)('carries nosniff and frame-ancestors on %s', async (_name, send, status) => {
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
  });
});

describe('api connections', () => {
  it('keeps an idle keep-alive connection longer than a load balancer does (Keep-Alive: timeout=65)', async () => {
    const agent = new Agent({ keepAlive: true });
    try {
      const headers = await new Promise<IncomingHttpHeaders>((resolve, reject) => {
        get(`${api.url}/healthz`, { agent }, (response) => {
          response.resume();
          resolve(response.headers);
        }).on('error', reject);
      });
      expect(headers['keep-alive']).toBe('timeout=65');
    } finally {
      agent.destroy();
    }
  });
});

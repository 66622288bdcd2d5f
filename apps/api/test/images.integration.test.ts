import { randomUUID } from 'node:crypto';
import { createOriginalImage, createProperty, createStagingJob } from '@staging/db/testing/factories';
import { enqueueStagingJob } from '@staging/services/staging/staging-queue';
import { MAX_UPLOAD_BYTES } from '@staging/domain/photo-upload';
import { sendRaw } from '@staging/stack/raw-http';
import type { RawPiece } from '@staging/stack/raw-http';
import { call, imageBytes, seedListing, useApiTestContext } from './support/fixtures';
import type { Listing } from './support/fixtures';

const api = useApiTestContext();

type ErrorJson = { error: { code: string; reason?: string; message: string } };

function form(file: { bytes: Buffer; name?: string; type?: string } | null, fields: Record<string, string> = {}, fileField = 'file'): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  if (file !== null) {
    data.append(fileField, new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name ?? 'photo.bin');
  }
  return data;
}

function upload(propertyId: string, body: FormData | string, cookie = api.actors.cookies.owner, headers: Record<string, string> = {}): Promise<Response> {
  return call(`${api.url}/api/properties/${propertyId}/images`, { method: 'POST', cookie, body, headers });
}

async function searchJobsFor(propertyId: string): Promise<number> {
  const jobs = await api.searchQueue.getJobs(['waiting', 'delayed', 'active', 'completed']);
  return jobs.filter((job) => job.data.propertyId === propertyId).length;
}

describe('POST /api/properties/:propertyId/images', () => {
  let propertyId: string;
  beforeAll(async () => {
    propertyId = (await createProperty(api.db, { ownerAgentId: api.actors.owner.id, assignedAgentIds: [api.actors.assigned.id] })).id;
  });

  it.each([
    ['jpeg', 'jpg', 'image/jpeg'],
    ['png', 'png', 'image/png'],
    ['webp', 'webp', 'image/webp'],
  ] as const)('stores a %s original and answers 201 with the image', async (format, extension, contentType) => {
    const bytes = await imageBytes(format, 120, 80);
    // The declared type is ignored; the bytes decide.
    const response = await upload(propertyId, form({ bytes, type: 'text/plain' }, { roomType: 'KITCHEN' }));
    expect(response.status).toBe(201);
    const { image } = (await response.json()) as { image: Record<string, unknown> };
    expect(image).toMatchObject({
      propertyId,
      contentType,
      width: 120,
      height: 80,
      bytes: bytes.length,
      isMain: false,
      isStyled: false,
      reviewStatus: null,
      roomType: 'KITCHEN',
      url: `/api/property-images/${image['id'] as string}/content`,
    });
    const row = await api.db.propertyImage.findUniqueOrThrow({ where: { id: image['id'] as string } });
    expect(row.objectKey).toBe(`originals/${propertyId}/${row.id}.${extension}`);
    expect((await api.storage.getObject(row.objectKey)).equals(bytes)).toBe(true);

    const content = await call(`${api.url}${image['url'] as string}`, { cookie: api.actors.cookies.assigned });
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe(contentType);
    expect(content.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await content.arrayBuffer()).equals(bytes)).toBe(true);
    expect(await searchJobsFor(propertyId)).toBeGreaterThan(0);
  });

  it('lets the assigned agent and an admin upload too', async () => {
    for (const cookie of [api.actors.cookies.assigned, api.actors.cookies.admin]) {
      expect((await upload(propertyId, form({ bytes: await imageBytes('jpeg') }), cookie)).status).toBe(201);
    }
  });

  // The reason tells a client which words to show; a malformed form has none (a client's bug).
  it.each([
    ['not an image', async () => form({ bytes: Buffer.from('hello, this is text') }), 'IMAGE_UNREADABLE'],
    ['a truncated JPEG', async () => form({ bytes: (await imageBytes('jpeg', 400, 300)).subarray(0, 400) }), 'IMAGE_UNREADABLE'],
    ['a GIF', async () => form({ bytes: Buffer.from('R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==', 'base64') }), 'IMAGE_UNREADABLE'],
    ['an empty file', async () => form({ bytes: Buffer.alloc(0) }), 'IMAGE_UNREADABLE'],
    ['no file', async () => form(null, { roomType: 'KITCHEN' }), undefined],
    ['the file in another field', async () => form({ bytes: Buffer.from('x') }, {}, 'photo'), undefined],
    ['an unknown room type', async () => form({ bytes: Buffer.from('x') }, { roomType: 'GARAGE' }), undefined],
    ['an unknown field', async () => form({ bytes: Buffer.from('x') }, { caption: 'hi' }), undefined],
    ['a JSON body', async () => JSON.stringify({ file: 'x' }), undefined],
  ])('refuses %s with 400 and stores nothing', async (_name, build, reason) => {
    const before = await api.db.propertyImage.count({ where: { propertyId } });
    const response = await upload(propertyId, await build());
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as ErrorJson;
    expect([error.code, error.reason]).toEqual(['BAD_REQUEST', reason]);
    expect(await api.db.propertyImage.count({ where: { propertyId } })).toBe(before);
  });

  it('refuses a HEIC photo with a message that says what to do, and stores nothing', async () => {
    const before = await api.db.propertyImage.count({ where: { propertyId } });
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1'), Buffer.alloc(64)]);
    const response = await upload(propertyId, form({ bytes: heic, name: 'IMG_0001.HEIC', type: 'image/heic' }));
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as ErrorJson;
    expect(error.reason).toBe('IMAGE_HEIF');
    expect(error.message).toMatch(/HEIC\/HEIF .* not accepted\. Export the photo as JPEG/);
    expect(await api.db.propertyImage.count({ where: { propertyId } })).toBe(before);
  });

  it('keeps the file name the photo was uploaded from, without any path', async () => {
    const response = await upload(propertyId, form({ bytes: await imageBytes('jpeg'), name: 'C:\\photos\\living room.jpg' }));
    expect(response.status).toBe(201);
    const { image } = (await response.json()) as { image: { id: string; fileName: string | null; thumbnailUrl: string } };
    expect(image.fileName).toBe('living room.jpg');
    expect(image.thumbnailUrl).toBe(`/api/property-images/${image.id}/derivatives/thumb`);
  });

  it('gives parallel uploads to one property distinct positions at the end of the gallery', async () => {
    const property = await createProperty(api.db, { ownerAgentId: api.actors.owner.id });
    const bytes = await imageBytes('jpeg', 40, 30);
    const responses = await Promise.all(Array.from({ length: 20 }, () => upload(property.id, form({ bytes }))));
    expect(responses.map((response) => response.status)).toEqual(Array.from({ length: 20 }, () => 201));
    const rows = await api.db.propertyImage.findMany({ where: { propertyId: property.id }, select: { displayOrder: true } });
    expect(rows.map((row) => row.displayOrder).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index));
  });

  it('refuses a file over the size cap with 413', async () => {
    const big = Buffer.concat([await imageBytes('jpeg'), Buffer.alloc(MAX_UPLOAD_BYTES + 1)]);
    const response = await upload(propertyId, form({ bytes: big }));
    expect(response.status).toBe(413);
    expect(((await response.json()) as ErrorJson).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers 401 without a session and 404 to an unrelated agent', async () => {
    const bytes = await imageBytes('jpeg');
    const anonymous = await call(`${api.url}/api/properties/${propertyId}/images`, { method: 'POST', body: form({ bytes }) });
    expect(anonymous.status).toBe(401);
    const unrelated = await upload(propertyId, form({ bytes }), api.actors.cookies.unrelated);
    expect(unrelated.status).toBe(404);
    const missing = await upload(randomUUID(), form({ bytes }));
    expect(await unrelated.json()).toEqual(await missing.json());
  });
});

describe('POST /api/properties/:propertyId/images with a body the client breaks', () => {
  const BOUNDARY = 'hostile-boundary';
  let propertyId: string;
  let jpeg: Buffer;
  beforeAll(async () => {
    propertyId = (await createProperty(api.db, { ownerAgentId: api.actors.owner.id })).id;
    jpeg = await imageBytes('jpeg', 120, 80);
  });

  function part(name: string, content: Buffer | string, fileName?: string): Buffer {
    const disposition = `form-data; name="${name}"${fileName === undefined ? '' : `; filename="${fileName}"`}`;
    const type = fileName === undefined ? '' : 'Content-Type: image/jpeg\r\n';
    return Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`), Buffer.from(content), Buffer.from('\r\n')]);
  }
  const closing = Buffer.from(`--${BOUNDARY}--\r\n`);

  function head(contentLength: number): string {
    return [
      `POST /api/properties/${propertyId}/images HTTP/1.1`,
      'Host: 127.0.0.1',
      `Cookie: ${api.actors.cookies.owner}`,
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
      `Content-Length: ${contentLength}`,
      'Connection: close',
      '',
      '',
    ].join('\r\n');
  }

  async function expectRefused(pieces: RawPiece[], status: number, options: { endAfterSending?: boolean } = {}): Promise<void> {
    const before = await api.db.propertyImage.count({ where: { propertyId } });
    const answer = await sendRaw(api.url, { pieces, ...options });
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.body.toString('utf8'))).toMatchObject({ error: { code: 'BAD_REQUEST' } });
    // The server is still serving, and nothing of the refused upload was kept.
    expect((await call(`${api.url}/healthz`)).status).toBe(200);
    expect(await api.db.propertyImage.count({ where: { propertyId } })).toBe(before);
  }

  it('answers 400 to a form that ends without its closing boundary', async () => {
    const body = part('file', jpeg, 'photo.jpg');
    await expectRefused([head(body.length), body], 400);
  });

  it('answers 400 to a form cut off in the middle of the file', async () => {
    const body = part('file', jpeg.subarray(0, 500), 'photo.jpg').subarray(0, 400);
    await expectRefused([head(body.length), body], 400);
  });

  it('answers 400 to a form with the file in a misnamed part, and to a second file', async () => {
    const misnamed = Buffer.concat([part('photo', jpeg, 'photo.jpg'), closing]);
    await expectRefused([head(misnamed.length), misnamed], 400);
    const twoFiles = Buffer.concat([part('file', jpeg, 'a.jpg'), part('file', jpeg, 'b.jpg'), closing]);
    await expectRefused([head(twoFiles.length), twoFiles], 400);
  });

  it('answers a client that stops sending mid-file, and keeps serving', async () => {
    const body = Buffer.concat([part('file', jpeg, 'photo.jpg'), closing]);
    const answer = await sendRaw(api.url, { pieces: [head(body.length), body.subarray(0, 300)], endAfterSending: true });
    // The client went away: an answer is optional, staying up is not.
    if (answer.status !== undefined) expect(answer.status).toBe(400);
    expect((await call(`${api.url}/healthz`)).status).toBe(200);
  });
});

describe('PATCH /api/property-images/:imageId', () => {
  let listing: Listing;
  beforeEach(async () => {
    listing = await seedListing(api.db, api.storage, api.actors);
  });

  function patch(imageId: string, json: unknown, cookie = api.actors.cookies.owner): Promise<Response> {
    return call(`${api.url}/api/property-images/${imageId}`, { method: 'PATCH', cookie, json });
  }

  it('moves the cover to another original, leaving exactly one', async () => {
    const response = await patch(listing.original.id, { isMain: true });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { image: { isMain: boolean } }).image.isMain).toBe(true);
    const mains = await api.db.propertyImage.findMany({ where: { propertyId: listing.propertyId, isMain: true } });
    expect(mains.map((image) => image.id)).toEqual([listing.original.id]);
  });

  it('keeps one cover under concurrent cover changes', async () => {
    const third = await createOriginalImage(api.db, { propertyId: listing.propertyId });
    const responses = await Promise.all(
      [listing.original.id, third.id, listing.cover.id, listing.original.id].map((id) => patch(id, { isMain: true })),
    );
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    expect(await api.db.propertyImage.count({ where: { propertyId: listing.propertyId, isMain: true } })).toBe(1);
  });

  it('sets room type and display order on an original', async () => {
    const response = await patch(listing.original.id, { roomType: 'TV_ROOM', displayOrder: 5 });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ image: { roomType: 'TV_ROOM', displayOrder: 5 } });
  });

  it('refuses isMain true on a staged image with 400 STAGED_IMAGE_CANNOT_BE_COVER', async () => {
    for (const staged of [listing.pending, listing.approved]) {
      const response = await patch(staged.id, { isMain: true });
      expect(response.status).toBe(400);
      expect(((await response.json()) as ErrorJson).error.code).toBe('STAGED_IMAGE_CANNOT_BE_COVER');
      expect((await api.db.propertyImage.findUniqueOrThrow({ where: { id: staged.id } })).isMain).toBe(false);
    }
    expect((await api.db.propertyImage.findUniqueOrThrow({ where: { id: listing.cover.id } })).isMain).toBe(true);
  });

  it('allows display order on a staged image but not a room type', async () => {
    expect((await patch(listing.approved.id, { displayOrder: 3 })).status).toBe(200);
    expect((await patch(listing.approved.id, { isMain: false })).status).toBe(200);
    const roomType = await patch(listing.approved.id, { roomType: 'KITCHEN' });
    expect(roomType.status).toBe(400);
  });

  it.each([
    ['an empty body', {}],
    ['an unknown field', { isCover: true }],
    ['a wrong type', { isMain: 'yes' }],
    ['a negative order', { displayOrder: -1 }],
    ['an array', [1, 2]],
  ])('refuses %s with 400', async (_name, body) => {
    const response = await patch(listing.original.id, body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorJson).error.code).toBe('BAD_REQUEST');
  });
});

describe('DELETE /api/property-images/:imageId', () => {
  let listing: Listing;
  beforeEach(async () => {
    listing = await seedListing(api.db, api.storage, api.actors);
  });

  it('refuses a staged image with 400 STAGED_IMAGE_DELETE_FORBIDDEN and keeps it', async () => {
    for (const staged of [listing.pending, listing.approved]) {
      const response = await call(`${api.url}/api/property-images/${staged.id}`, { method: 'DELETE', cookie: api.actors.cookies.owner });
      expect(response.status).toBe(400);
      const body = (await response.json()) as ErrorJson;
      expect(body.error.code).toBe('STAGED_IMAGE_DELETE_FORBIDDEN');
      expect(body.error.message).toContain('ai.rejectStagedVariant');
      expect(await api.db.propertyImage.count({ where: { id: staged.id } })).toBe(1);
    }
  });

  it('deletes an original: variants cascade, objects go to the outbox, its jobs are canceled', async () => {
    const queued = await createStagingJob(api.db, { original: listing.original, staging: { canonicalStyle: 'FARMHOUSE' } });
    await enqueueStagingJob(api.stagingQueue, queued.id);
    const active = await createStagingJob(api.db, {
      original: listing.original,
      job: { status: 'PROCESSING' },
      staging: { canonicalStyle: 'INDUSTRIAL' },
      attempts: [{ status: 'ACTIVE', providerPredictionId: `pred_${randomUUID()}` }],
    });
    await enqueueStagingJob(api.stagingQueue, active.id, { delayMs: 600_000 });

    const response = await call(`${api.url}/api/property-images/${listing.original.id}`, { method: 'DELETE', cookie: api.actors.cookies.assigned });
    expect(response.status).toBe(204);

    const remaining = await api.db.propertyImage.findMany({ where: { id: { in: [listing.original.id, listing.pending.id, listing.approved.id] } } });
    expect(remaining).toEqual([]);
    const outbox = await api.db.storageDeletionOutbox.findMany({
      where: { objectKey: { in: [listing.original.objectKey, listing.pending.objectKey, listing.approved.objectKey] } },
    });
    expect(outbox.map((row) => [row.objectKey, row.reason, row.status]).sort()).toEqual(
      [
        [listing.original.objectKey, 'ORIGINAL_IMAGE_DELETED', 'PENDING'],
        [listing.pending.objectKey, 'STAGED_IMAGE_DELETED', 'PENDING'],
        [listing.approved.objectKey, 'STAGED_IMAGE_DELETED', 'PENDING'],
      ].sort(),
    );
    expect((await api.db.aiJob.findUniqueOrThrow({ where: { id: queued.id } })).status).toBe('CANCELED');
    expect(await api.stagingQueue.getJobState(queued.id)).toBe('unknown');
    expect((await api.db.aiJob.findUniqueOrThrow({ where: { id: active.id } })).status).toBe('CANCEL_REQUESTED');
    expect(await api.stagingQueue.getJobState(active.id)).toBe('waiting');
    expect(await searchJobsFor(listing.propertyId)).toBeGreaterThan(0);

    const again = await call(`${api.url}/api/property-images/${listing.original.id}`, { method: 'DELETE', cookie: api.actors.cookies.owner });
    expect(again.status).toBe(404);
  });

  it('answers other methods with 405', async () => {
    const response = await call(`${api.url}/api/property-images/${listing.original.id}`, { method: 'PUT', cookie: api.actors.cookies.owner });
    expect(response.status).toBe(405);
  });
});

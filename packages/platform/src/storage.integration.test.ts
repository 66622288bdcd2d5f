import { randomUUID } from 'node:crypto';
import type { StorageConfig } from '@staging/config/common';
// s3rver is a dependency of tools/stack only, so its launcher lives there (docs/decisions/tests.md,
// "s3rver helper location"); the repo root depends on @staging/stack for tests like this one.
import { startS3rver } from '@staging/stack/s3-server';
import type { RunningS3rver } from '@staging/stack/s3-server';
import { createObjectStorage, ObjectNotFoundError } from './storage';
import type { ObjectStorage } from './storage';

let s3: RunningS3rver;
const clients: ObjectStorage[] = [];

function storageFor(bucket: string): ObjectStorage {
  const config: StorageConfig = {
    endpoint: s3.endpoint,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    bucket,
    forcePathStyle: true,
  };
  const storage = createObjectStorage(config);
  clients.push(storage);
  return storage;
}

function uniqueBucket(): string {
  return `platform-test-${randomUUID().slice(0, 8)}`;
}

beforeAll(async () => {
  s3 = await startS3rver();
});

afterAll(async () => {
  for (const client of clients) client.close();
  await s3.stop();
});

describe('object storage over s3rver', () => {
  it('creates a missing bucket, and ensureBucket is idempotent', async () => {
    const storage = storageFor(uniqueBucket());
    await expect(storage.putObject('a.jpg', Buffer.from('x'), 'image/jpeg')).rejects.toMatchObject({ name: 'NoSuchBucket' });
    await storage.ensureBucket();
    await storage.ensureBucket();
    await storage.putObject('a.jpg', Buffer.from('x'), 'image/jpeg');
    await expect(storage.headObject('a.jpg')).resolves.toEqual({ bytes: 1, contentType: 'image/jpeg' });
  });

  it('lets two processes ensure the same bucket at once', async () => {
    const bucket = uniqueBucket();
    await Promise.all([storageFor(bucket).ensureBucket(), storageFor(bucket).ensureBucket(), storageFor(bucket).ensureBucket()]);
    await expect(storageFor(bucket).headObject('x')).resolves.toBeNull();
  });

  it('round-trips binary bytes with their content type', async () => {
    const storage = storageFor(uniqueBucket());
    await storage.ensureBucket();
    const key = `staged/${randomUUID()}.webp`;
    const body = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256));
    await storage.putObject(key, body, 'image/webp');

    expect((await storage.getObject(key)).equals(body)).toBe(true);
    await expect(storage.headObject(key)).resolves.toEqual({ bytes: 4096, contentType: 'image/webp' });

    const chunks: Buffer[] = [];
    for await (const chunk of await storage.getObjectStream(key)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(body)).toBe(true);
  });

  it('presigns a GET URL that serves the object without credentials and expires as asked', async () => {
    const storage = storageFor(uniqueBucket());
    await storage.ensureBucket();
    const key = `originals/${randomUUID()}.jpg`;
    const body = Buffer.from('original photo bytes');
    await storage.putObject(key, body, 'image/jpeg');

    const url = new URL(await storage.presignGetUrl(key, 600));
    expect(url.searchParams.get('X-Amz-Expires')).toBe('600');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(body)).toBe(true);
  });

  it('overwrites an object under the same key', async () => {
    const storage = storageFor(uniqueBucket());
    await storage.ensureBucket();
    await storage.putObject('k.jpg', Buffer.from('first'), 'image/jpeg');
    await storage.putObject('k.jpg', Buffer.from('second!'), 'image/png');
    expect((await storage.getObject('k.jpg')).toString()).toBe('second!');
    await expect(storage.headObject('k.jpg')).resolves.toEqual({ bytes: 7, contentType: 'image/png' });
  });

  it('deletes an object, and deleting a missing key succeeds', async () => {
    const storage = storageFor(uniqueBucket());
    await storage.ensureBucket();
    await storage.putObject('gone.jpg', Buffer.from('x'), 'image/jpeg');
    await storage.deleteObject('gone.jpg');
    await expect(storage.headObject('gone.jpg')).resolves.toBeNull();
    await expect(storage.deleteObject('gone.jpg')).resolves.toBeUndefined();
    await expect(storage.deleteObject(`never-existed/${randomUUID()}`)).resolves.toBeUndefined();
  });

  it('reports a missing object as ObjectNotFoundError on read', async () => {
    const storage = storageFor(uniqueBucket());
    await storage.ensureBucket();
    await expect(storage.getObject('missing.jpg')).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(storage.getObjectStream('missing.jpg')).rejects.toMatchObject({ name: 'ObjectNotFoundError', key: 'missing.jpg' });
  });

  it('does not treat a missing bucket as a successful delete', async () => {
    const storage = storageFor(uniqueBucket());
    await expect(storage.deleteObject('k.jpg')).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });

  it('keeps objects of different buckets apart', async () => {
    const a = storageFor(uniqueBucket());
    const b = storageFor(uniqueBucket());
    await a.ensureBucket();
    await b.ensureBucket();
    await a.putObject('same-key', Buffer.from('a'), 'text/plain');
    await expect(b.headObject('same-key')).resolves.toBeNull();
    expect(a.bucket).not.toBe(b.bucket);
  });
});

import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StorageConfig } from '@staging/config/common';
import { silenceAwsSdkNodeVersionNotice } from '@staging/config/sdk-notices';

export interface ObjectHead {
  bytes: number;
  contentType: string | undefined;
}

export interface ObjectStorage {
  readonly bucket: string;
  putObject(key: string, body: Buffer, contentType: string): Promise<void>;
  /** @throws ObjectNotFoundError when the key does not exist. */
  getObject(key: string): Promise<Buffer>;
  /** @throws ObjectNotFoundError when the key does not exist. */
  getObjectStream(key: string): Promise<Readable>;
  /** Succeeds when the key is already gone, so outbox retries are safe. */
  deleteObject(key: string): Promise<void>;
  headObject(key: string): Promise<ObjectHead | null>;
  /**
   * A time-limited GET URL for one object (the provider downloads originals with it). The URL is
   * a bearer credential: hand it to the one party that needs it and never log it.
   */
  presignGetUrl(key: string, expiresInSeconds: number): Promise<string>;
  /** Creates the bucket when missing (local stack, tests); a no-op when it exists. */
  ensureBucket(): Promise<void>;
  /** Releases the HTTP connection pool. */
  close(): void;
}

export class ObjectNotFoundError extends Error {
  readonly key: string;

  constructor(key: string) {
    super(`object not found: ${key}`);
    this.name = 'ObjectNotFoundError';
    this.key = key;
  }
}

function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.name === 'NoSuchBucket' ||
    error.$metadata.httpStatusCode === 404;
}

/** An S3 client for `config` (endpoint, path style, credentials), with `options` on top. */
export function createS3Client(config: StorageConfig, options: Omit<S3ClientConfig, 'credentials'> = {}): S3Client {
  silenceAwsSdkNodeVersionNotice();
  return new S3Client({
    region: config.region,
    ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    ...options,
  });
}

/** The body of `key` as a stream. */
async function openBody(client: S3Client, Bucket: string, key: string): Promise<Readable> {
  try {
    const out = await client.send(new GetObjectCommand({ Bucket, Key: key }));
    if (!(out.Body instanceof Readable)) throw new Error(`object ${key} has no readable body`);
    return out.Body;
  } catch (error) {
    if (isNotFound(error)) throw new ObjectNotFoundError(key);
    throw error;
  }
}

/** Creates the bucket when HeadBucket does not find it. */
async function ensureBucket(client: S3Client, Bucket: string): Promise<void> {
  try {
    await client.send(new HeadBucketCommand({ Bucket }));
    return;
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  try {
    await client.send(new CreateBucketCommand({ Bucket }));
  } catch (error) {
    // A concurrent ensureBucket (two processes booting) may have created it first. On AWS,
    // BucketAlreadyExists can also mean another account owns the name, so it only counts as
    // success when the bucket is now reachable with our credentials.
    const name = error instanceof Error ? error.name : undefined;
    if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw error;
    await client.send(new HeadBucketCommand({ Bucket }));
  }
}

/** Object storage over the S3 API: AWS in production, s3rver in tests and the local stack. */
export function createObjectStorage(config: StorageConfig): ObjectStorage {
  const client = createS3Client(config, {
    // The SDK waits forever by default; a stalled store must fail the step so the job retries
    // instead of holding a worker slot. requestTimeout is per socket inactivity, not per transfer.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
  });
  const Bucket = config.bucket;

  return {
    bucket: Bucket,

    async putObject(key, body, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length }),
      );
    },

    async getObject(key) {
      return buffer(await openBody(client, Bucket, key));
    },

    getObjectStream: (key) => openBody(client, Bucket, key),

    async deleteObject(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
      } catch (error) {
        // S3 answers 204 for a missing key; some compatible stores answer 404. Both mean "gone".
        if (!isNotFound(error) || (error instanceof Error && error.name === 'NoSuchBucket')) throw error;
      }
    },

    async headObject(key) {
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { bytes: out.ContentLength ?? 0, contentType: out.ContentType };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    presignGetUrl(key, expiresInSeconds) {
      return getSignedUrl(client, new GetObjectCommand({ Bucket, Key: key }), { expiresIn: expiresInSeconds });
    },

    ensureBucket: () => ensureBucket(client, Bucket),

    close() {
      client.destroy();
    },
  };
}

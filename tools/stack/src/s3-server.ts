import { ListObjectsCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TEST_SECRETS } from '@staging/config/test-env';

/** The part of s3rver 3.7's API used here; the package ships no type declarations. */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets?: { name: string }[];
}) => S3rverInstance;

// s3rver is CommonJS and untyped; loading it through require keeps the types above the only
// contract instead of an ambient `declare module` shared by the whole package.
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

export interface StartS3rverOptions {
  /** 0 (default) picks a free port; the launcher passes 4300. */
  port?: number;
  /** Where objects are kept; defaults to a fresh temporary directory removed on stop. */
  directory?: string;
  /** Buckets to create at start. */
  buckets?: string[];
}

export interface RunningS3rver {
  /** http://127.0.0.1:<port>, for S3_ENDPOINT (with S3_FORCE_PATH_STYLE true). */
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * Starts s3rver on 127.0.0.1: the same S3 wire protocol as production, for tests and the local
 * stack. It accepts any access key and secret.
 */
export async function startS3rver(options: StartS3rverOptions = {}): Promise<RunningS3rver> {
  const ownsDirectory = options.directory === undefined;
  const directory = options.directory ?? (await mkdtemp(path.join(tmpdir(), 's3rver-')));
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    directory,
    silent: true,
    ...(options.buckets === undefined ? {} : { configureBuckets: options.buckets.map((name) => ({ name })) }),
  });
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    async stop() {
      await server.close();
      if (ownsDirectory) await rm(directory, { recursive: true, force: true });
    },
  };
}

/** Every key stored in `bucket` of an s3rver started with the test secrets. */
export async function storedKeys(endpoint: string, bucket: string): Promise<string[]> {
  const s3 = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: TEST_SECRETS.S3_SECRET_ACCESS_KEY },
  });
  const keys: string[] = [];
  try {
    // ListObjects (v1) paged by the last key, not V2's continuation token: s3rver builds that token
    // with DES, which Node's OpenSSL 3 refuses, so any bucket of over 1,000 keys failed to list
    // (a 1,000-kill run stores more outputs than that). S3 itself pages v1 the same way.
    let marker: string | undefined;
    for (;;) {
      const page = await s3.send(new ListObjectsCommand({ Bucket: bucket, ...(marker === undefined ? {} : { Marker: marker }) }));
      keys.push(...(page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : [])));
      marker = keys.at(-1);
      if (page.IsTruncated !== true || marker === undefined) break;
    }
  } finally {
    s3.destroy();
  }
  return keys;
}

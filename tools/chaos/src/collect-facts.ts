// Reads what the audit judges, after the drain: every prediction the simulator created (its
// control API, which keeps the callback URL even where the public API does not echo it), the
// ledger rows of the run's database and the keys stored in its bucket.
import { ListObjectsCommand, S3Client } from '@aws-sdk/client-s3';
import { TEST_SECRETS } from '@staging/config/test-env';
import type { Db } from '@staging/db/client';
import type { JobStatus } from '@staging/domain/staging-states';
import { attemptIdOfCallback } from './audit-rules';
import type { AttemptFact, AuditFacts, Interval, JobFact, Purchase } from './audit-rules';

interface SimPrediction {
  id: string;
  created_at: string;
  webhook?: string | null;
}

export async function readPurchases(simulatorOrigin: string): Promise<Purchase[]> {
  const response = await fetch(`${simulatorOrigin}/__sim/predictions`);
  if (!response.ok) throw new Error(`GET /__sim/predictions answered ${response.status}`);
  const { predictions } = (await response.json()) as { predictions: SimPrediction[] };
  return predictions.map((p) => ({
    predictionId: p.id,
    createdAtMs: Date.parse(p.created_at),
    attemptId: attemptIdOfCallback(p.webhook),
  }));
}

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
      keys.push(...(page.Contents ?? []).map((object) => object.Key!).filter(Boolean));
      marker = keys.at(-1);
      if (page.IsTruncated !== true || marker === undefined) break;
    }
  } finally {
    s3.destroy();
  }
  return keys;
}

export async function collectFacts(options: {
  db: Db;
  purchases: Purchase[];
  s3Endpoint: string;
  bucket: string;
  killSwitchOff: Interval[];
  rateLimitPerMinute: number;
}): Promise<AuditFacts> {
  const { db } = options;
  const [attempts, jobs, images, outbox, keys] = await Promise.all([
    db.aiProviderAttempt.findMany({
      select: { id: true, aiJobId: true, attemptNumber: true, status: true, errorCode: true, providerPredictionId: true, outputObjectKey: true },
    }),
    db.aiJob.findMany({ where: { type: 'ROOM_STAGING' }, select: { id: true, status: true } }),
    db.propertyImage.findMany({ select: { objectKey: true } }),
    // A row still to be processed, or given up on, holds its object as "queued for deletion".
    db.storageDeletionOutbox.findMany({ where: { status: { not: 'DELETED' } }, select: { objectKey: true } }),
    storedKeys(options.s3Endpoint, options.bucket),
  ]);
  return {
    purchases: options.purchases,
    attempts: attempts.map(({ outputObjectKey: _key, ...fact }): AttemptFact => fact),
    jobs: jobs.map((job): JobFact => ({ id: job.id, status: job.status as JobStatus })),
    storedKeys: keys,
    referencedKeys: new Set([
      ...images.map((image) => image.objectKey),
      ...attempts.map((a) => a.outputObjectKey).filter((key): key is string => key !== null),
    ]),
    queuedKeys: new Set(outbox.map((row) => row.objectKey)),
    killSwitchOff: options.killSwitchOff,
    rateLimitPerMinute: options.rateLimitPerMinute,
  };
}

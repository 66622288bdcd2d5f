import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { TEST_SECRETS } from '@staging/config/test-env';
import { startS3rver } from '@staging/stack/s3-server';
import type { RunningS3rver } from '@staging/stack/s3-server';
import { storedKeys } from '@staging/stack/s3-server';

const BUCKET = 'chaos-list-test';
let s3rver: RunningS3rver;

beforeAll(async () => {
  s3rver = await startS3rver({ buckets: [BUCKET] });
});

afterAll(async () => {
  await s3rver.stop();
});

it('lists every stored object of a bucket holding more than one page (1,000 keys)', async () => {
  const client = new S3Client({
    endpoint: s3rver.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: TEST_SECRETS.S3_SECRET_ACCESS_KEY },
  });
  const expected = Array.from({ length: 1_050 }, (_, i) => `staged/p/job-${String(i).padStart(4, '0')}/1.jpg`);
  try {
    for (let i = 0; i < expected.length; i += 50)
      await Promise.all(expected.slice(i, i + 50).map((Key) => client.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: 'x' }))));
  } finally {
    client.destroy();
  }
  expect((await storedKeys(s3rver.endpoint, BUCKET)).sort()).toEqual(expected);
}, 120_000);

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { TEST_SECRETS } from '@staging/config/test-env';
import { startS3rver } from '@staging/stack/s3-server';
import type { RunningS3rver } from '@staging/stack/s3-server';
import { storedKeys } from '@staging/stack/s3-server';
import { LINE_REJOIN_EVENTS } from '@staging/domain/start-line';
import { readLineRejoins } from './collect-facts';

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

it("reads when each job joined the start line anew from every worker's log (a redelivered pickup too), and nothing else", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'chaos-rejoins-'));
  try {
    const line = (event: string, jobId: string, time: string) => JSON.stringify({ level: 'info', time, event, jobId });
    await writeFile(
      path.join(dir, 'worker-0.log'),
      [
        'not json {"event"',
        line(LINE_REJOIN_EVENTS.queueRepaired, 'j1', '2026-01-01T00:00:01.000Z'),
        line('completed', 'j1', '2026-01-01T00:00:02.000Z'),
        line(LINE_REJOIN_EVENTS.createAgain, 'j2', '2026-01-01T00:00:03.000Z'),
      ].join('\n'),
    );
    const pickup = (jobId: string, time: string, queueAttempt: number) => JSON.stringify({ time, event: 'worker_started', jobId, queueAttempt });
    await writeFile(
      path.join(dir, 'worker-1.log'),
      [
        line(LINE_REJOIN_EVENTS.createAgain, 'j1', '2026-01-01T00:00:04.000Z'),
        pickup('j4', '2026-01-01T00:00:06.000Z', 1),
        pickup('j5', '2026-01-01T00:00:07.000Z', 2),
      ].join('\n'),
    );
    await writeFile(path.join(dir, 'api.log'), line(LINE_REJOIN_EVENTS.createAgain, 'j3', '2026-01-01T00:00:05.000Z'));
    const rejoins = await readLineRejoins(dir);
    expect(Object.fromEntries([...rejoins].map(([jobId, times]) => [jobId, times.sort()]))).toEqual({
      j1: [Date.parse('2026-01-01T00:00:01.000Z'), Date.parse('2026-01-01T00:00:04.000Z')],
      j2: [Date.parse('2026-01-01T00:00:03.000Z')],
      j5: [Date.parse('2026-01-01T00:00:07.000Z')],
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/**
 * Alerts reach the error tracker with environment, release, jobId and errorCode searchable and no
 * secret anywhere in what is sent. The Sentry SDK is pointed at a local capture server through the
 * same configuration path main.ts uses (SENTRY_DSN, SENTRY_ENVIRONMENT, RELEASE).
 */
import { randomUUID } from 'node:crypto';
import { parseApiEnv } from '@staging/config/api';
import { apiTestEnv, TEST_SECRETS } from '@staging/config/test-env';
import { parseWorkerEnv } from '@staging/config/worker';
import { workerTestEnv } from '@staging/config/test-env';
import { createDb } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { createTestDatabase } from '@staging/db/testing';
import type { TestDatabase } from '@staging/db/testing';
import {
  captureAlert,
  captureError,
  flushErrorTracker,
  initErrorTracker,
} from '@staging/platform/error-tracker';
import { createMemoryAlertDedupe, runStaleJobAlertPass } from '@staging/services/alerts/stale-jobs';
import { startSentryCaptureServer } from '@staging/platform/testing/sentry-capture';
import type { SentryCaptureServer } from '@staging/platform/testing/sentry-capture';
import { memoryLogger } from '@staging/services/staging/testing/staging-test-kit';

let capture: SentryCaptureServer;
let dsn: string;
let database: TestDatabase;
let db: Db;

const SIGNED_URL =
  'https://staging-bucket.s3.amazonaws.com/properties/p/originals/o.jpg?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20261122%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Signature=deadbeefcafe';
const SESSION_COOKIE = 'staging_session=sess-token-VALUE-donotleak';

beforeAll(async () => {
  capture = await startSentryCaptureServer();
  dsn = capture.dsn;
  database = await createTestDatabase();
  db = createDb(database.url, { maxConnections: 3 });
});

afterAll(async () => {
  await db.$disconnect();
  await database.drop();
  await capture.close();
});

beforeEach(() => {
  capture.envelopes.length = 0;
});

function allEvents(): Record<string, unknown>[] {
  return capture.events();
}

function expectNoSecrets(): void {
  const everything = capture.envelopes.map((e) => `${e.url}\n${e.raw}`).join('\n');
  const secrets = [
    TEST_SECRETS.PROVIDER_API_TOKEN,
    TEST_SECRETS.PROVIDER_WEBHOOK_SIGNING_SECRET,
    TEST_SECRETS.PROVIDER_WEBHOOK_SIGNING_SECRET.slice('whsec_'.length),
    TEST_SECRETS.AI_STAGING_USER_HASH_SECRET,
    TEST_SECRETS.S3_SECRET_ACCESS_KEY,
    TEST_SECRETS.AUTH_SECRET,
    'sess-token-VALUE-donotleak',
    'deadbeefcafe',
  ];
  for (const secret of secrets) expect(everything).not.toContain(secret);
  expect(everything).not.toMatch(/X-Amz-Signature|X-Amz-Credential/i);
}

async function flushed(): Promise<void> {
  expect(await flushErrorTracker(5_000)).toBe(true);
}

/** Starts the tracker as main.ts does, from the role's parsed configuration. */
function trackErrorsAs(service: string, sentry: ReturnType<typeof parseWorkerEnv>['sentry']): void {
  expect(initErrorTracker({ ...sentry, service, logger: memoryLogger().logger })).toEqual({ enabled: true });
}

describe('error tracking (Sentry SDK against a local capture server)', () => {
  it('worker: a stale-job alert arrives with environment, release, jobId and errorCode, and no secret', async () => {
    const config = parseWorkerEnv(
      workerTestEnv({ SENTRY_DSN: dsn, SENTRY_ENVIRONMENT: 'ops-test', RELEASE: 'worker-2026.11.22' }),
    );
    trackErrorsAs('worker', config.sentry);

    const jobId = randomUUID();
    await db.aiJob.create({
      data: {
        id: jobId,
        type: 'DESCRIPTION',
        status: 'PENDING',
        payload: { propertyId: 'p' },
        createdAt: new Date(Date.now() - 10 * 60_000),
      },
    });
    await db.storageDeletionOutbox.create({
      data: {
        objectKey: 'properties/x/staged/y.jpg',
        reason: 'STAGED_IMAGE_DELETED',
        status: 'FAILED',
        attempts: 8,
      },
    });
    const raised = await runStaleJobAlertPass({
      db,
      dedupe: createMemoryAlertDedupe(),
      captureAlert,
      logger: memoryLogger().logger,
      now: () => new Date(),
      stagingEnabled: true,
    });
    expect(raised.map((r) => r.kind).sort()).toEqual(['outbox_failed', 'pending']);
    // An alert whose text and extras carry credentials, as an SDK error might.
    captureAlert({
      message: `provider call failed with Bearer ${config.providerApiToken} for ${SIGNED_URL}`,
      level: 'error',
      tags: { jobId, errorCode: 'PROVIDER_AUTH' },
      extra: {
        authorization: `Bearer ${config.providerApiToken}`,
        sourceUrl: SIGNED_URL,
        cookie: SESSION_COOKIE,
        userHashSecret: config.userHashSecret,
      },
    });
    captureError(new Error(`download failed: ${SIGNED_URL} (token ${config.providerApiToken})`), {
      tags: { jobId, errorCode: 'OUTPUT_DOWNLOAD_FAILED' },
    });
    await flushed();

    const events = allEvents();
    expect(events).toHaveLength(4);
    for (const event of events) {
      expect(event).toMatchObject({
        environment: 'ops-test',
        release: 'worker-2026.11.22',
        tags: expect.objectContaining({ service: 'worker', errorCode: expect.any(String) }),
      });
    }
    const pending = events.find(
      (e) => (e['tags'] as Record<string, string>)['errorCode'] === 'STALE_JOB_PENDING',
    );
    expect(pending?.['tags']).toMatchObject({ jobId, jobType: 'DESCRIPTION' });
    expect(
      events.find((e) => (e['tags'] as Record<string, string>)['errorCode'] === 'DELETION_OUTBOX_FAILED'),
    ).toBeDefined();
    const auth = events.find((e) => (e['tags'] as Record<string, string>)['errorCode'] === 'PROVIDER_AUTH');
    expect(auth?.['tags']).toMatchObject({ jobId });
    // The fields were sent, with their credentials removed (not dropped silently).
    expect(auth?.['message']).toContain('Bearer [redacted]');
    expect(auth?.['extra']).toMatchObject({
      authorization: '[redacted]',
      cookie: '[redacted]',
      sourceUrl: expect.stringMatching(
        /^https:\/\/staging-bucket\.s3\.amazonaws\.com\/properties\/p\/originals\/o\.jpg$/,
      ),
    });
    expect(
      events.find((e) => (e['tags'] as Record<string, string>)['errorCode'] === 'OUTPUT_DOWNLOAD_FAILED')?.[
        'tags'
      ],
    ).toMatchObject({ jobId });
    expectNoSecrets();
  });

  it('api: the api configuration path tags events with its own service, environment and release, without secrets', async () => {
    const config = parseApiEnv(
      apiTestEnv({ SENTRY_DSN: dsn, SENTRY_ENVIRONMENT: 'ops-test-api', RELEASE: 'api-2026.11.22' }),
    );
    trackErrorsAs('api', config.sentry);
    const jobId = randomUUID();
    captureAlert({
      message: `provider webhook prediction does not match the attempt (secret ${config.webhookSigningSecret})`,
      level: 'warning',
      tags: { jobId, errorCode: 'PREDICTION_MISMATCH' },
      extra: {
        headers: { cookie: SESSION_COOKIE, 'webhook-signature': 'v1,abc' },
        signingSecret: config.webhookSigningSecret,
      },
    });
    await flushed();
    const [event] = allEvents();
    expect(event).toMatchObject({
      environment: 'ops-test-api',
      release: 'api-2026.11.22',
      tags: expect.objectContaining({ service: 'api', jobId, errorCode: 'PREDICTION_MISMATCH' }),
    });
    expectNoSecrets();
  });
});

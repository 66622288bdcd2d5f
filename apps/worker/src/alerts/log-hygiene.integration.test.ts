/**
 * Log hygiene (docs/system.md 6): the whole happy path (login, submission over tRPC, signed webhooks into
 * the real api process, worker pipeline, dashboard with basic auth) and every fault the provider simulator
 * can script run with all api and worker log output captured; then the output is scanned for every
 * secret value of the test and for signed-URL patterns. Zero hits allowed.
 */
import { Writable } from 'node:stream';
import { apiTestEnv, TEST_SECRETS } from '@staging/config/test-env';
import { createUser, createOriginalImage, createProperty } from '@staging/db/testing/factories';
import { captureAlert, initErrorTracker } from '@staging/platform/error-tracker';
import { createLogger } from '@staging/platform/logger';
import type { Logger } from '@staging/platform/logger';
import { startApiProcess } from '@staging/stack/api-process';
import type { ApiProcess } from '@staging/stack/api-process';
import { FAULT_NAMES } from '@staging/provider-simulator/faults';
import { startTestStack, TEST_SIGNING_SECRET, TEST_TOKEN, testPhoto } from '../../test/support/test-stack';
import type { TestStack } from '../../test/support/test-stack';

const S3_SECRET = 's3-secret-KEY-value-hygiene-0123456789';
const DASHBOARD_PASSWORD = 'dashboard-PASSWORD-hygiene-value';
const WRONG_TOKEN = 'r8_wrongTOKENhygieneValue0123456789';
const PASSWORD = 'agent-password-hygiene-VALUE';

function capture(service: string): { logger: Logger; text: () => string } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString('utf8'));
      callback();
    },
  });
  return { logger: createLogger({ service, level: 'trace', destination }), text: () => chunks.join('') };
}

let stack: TestStack;
let api: ApiProcess;
const workerLog = capture('worker');

beforeAll(async () => {
  stack = await startTestStack();
  // The real api, as a process: the webhook receiver and tRPC producer, its whole output captured.
  api = await startApiProcess(
    apiTestEnv({
      DATABASE_URL: stack.env().DATABASE_URL,
      VALKEY_URL: process.env.VALKEY_URL ?? 'redis://127.0.0.1:6379',
      QUEUE_SUFFIX: stack.suffix,
      S3_ENDPOINT: stack.s3.endpoint,
      S3_BUCKET: stack.storage.bucket,
      S3_SECRET_ACCESS_KEY: S3_SECRET,
      PROVIDER_WEBHOOK_SIGNING_SECRET: TEST_SIGNING_SECRET,
      PORT: '0',
      LOG_LEVEL: 'trace',
    }),
  );
  // Alerts are logged through the tracker's logger: route them into the captured worker output.
  initErrorTracker({ service: 'worker', environment: 'test', release: 'test', logger: workerLog.logger });
});

afterAll(async () => {
  await api.stop();
  await stack.close();
});

function workerEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    PROVIDER_WEBHOOK_BASE_URL: api.origin,
    S3_SECRET_ACCESS_KEY: S3_SECRET,
    QUEUE_DASHBOARD_USER: 'ops',
    QUEUE_DASHBOARD_PASSWORD: DASHBOARD_PASSWORD,
    ...overrides,
  };
}

async function seedOwnedOriginal(password?: string) {
  const owner = await createUser(stack.db, password === undefined ? {} : { password });
  const property = await createProperty(stack.db, { ownerAgentId: owner.id });
  const original = await createOriginalImage(stack.db, { propertyId: property.id });
  await stack.storage.putObject(original.objectKey, await testPhoto(), 'image/jpeg');
  return { owner, original };
}

const TERMINAL = ['SUCCESS', 'FAILED', 'CANCELED'] as const;
/** The workers here log to this test's capture, so a hang message takes their lines from it. */
const hangLogs = { logs: () => workerLog.text() };

describe('log hygiene', () => {
  it('no secret value or signed URL appears in any log line of the happy path and every simulator fault', async () => {
    const worker = await stack.startWorker({
      env: workerEnv(),
      overrides: { logger: workerLog.logger, captureAlert, http: true },
    });
    const workerOrigin = `http://127.0.0.1:${worker.app.port}`;

    // Happy path through the api: login (session cookie), submit over tRPC, signed webhooks back.
    const { owner, original } = await seedOwnedOriginal(PASSWORD);
    const login = await fetch(`${api.origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: owner.email, password: PASSWORD }),
    });
    expect(login.status).toBe(204);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const sessionToken = decodeURIComponent(cookie.split('=')[1] ?? '');
    expect(sessionToken.length).toBeGreaterThan(16);
    expect((await fetch(`${api.origin}/api/auth/me`, { headers: { cookie } })).status).toBe(200);
    const submitted = await fetch(`${api.origin}/api/trpc/ai.submitStaging`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({
        assignments: [{ originalImageId: original.id, roomType: 'BEDROOM', style: 'Scandi' }],
      }),
    });
    expect(submitted.status).toBe(200);
    const { result } = (await submitted.json()) as { result: { data: { items: { aiJobId: string }[] } } };
    const happyJob = result.data.items[0]!.aiJobId;
    expect(await stack.waitForStatus(happyJob, [...TERMINAL], hangLogs)).toBe('SUCCESS');

    // Unsigned and forged callbacks, and dashboard requests with right and wrong credentials.
    const forged = await fetch(`${api.origin}/api/webhooks/provider/staging/some-attempt`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg_x',
        'webhook-timestamp': '1',
        'webhook-signature': 'v1,Zm9yZ2Vk',
        cookie,
      },
      body: '{"id":"p","status":"succeeded"}',
    });
    expect(forged.status).toBe(401);
    const basic = (password: string) => ({
      authorization: `Basic ${Buffer.from(`ops:${password}`).toString('base64')}`,
    });
    expect(
      (await fetch(`${workerOrigin}/admin/queues/api/queues`, { headers: basic(DASHBOARD_PASSWORD) })).status,
    ).toBe(200);
    expect(
      (
        await fetch(`${workerOrigin}/admin/queues/api/queues`, {
          headers: basic(`${DASHBOARD_PASSWORD}-wrong`),
        })
      ).status,
    ).toBe(401);

    // Every scripted fault of the simulator, one job each (retries consume later faults too).
    await stack.faults([...FAULT_NAMES]);
    const jobs: string[] = [];
    for (let i = 0; i < FAULT_NAMES.length; i += 1) jobs.push((await stack.seedJob()).jobId);
    for (const jobId of jobs) await stack.waitForStatus(jobId, [...TERMINAL], hangLogs);
    await worker.stop();

    // A worker with a wrong provider token (provider answers 401).
    const wrong = await stack.startWorker({
      env: workerEnv({ PROVIDER_API_TOKEN: WRONG_TOKEN }),
      overrides: { logger: workerLog.logger, captureAlert },
    });
    const rejected = await stack.seedJob();
    expect(await stack.waitForStatus(rejected.jobId, [...TERMINAL], hangLogs)).toBe('FAILED');
    await wrong.stop();

    const output = `${api.output()}\n${workerLog.text()}`;
    // The capture really saw the runs: events of the pipeline, the webhook receiver and faults.
    for (const marker of [
      '"worker_started"',
      '"completed"',
      'provider_webhook.received',
      '"retry_scheduled"',
      '"terminal_error"',
      'PROVIDER_AUTH',
    ]) {
      expect(output).toContain(marker);
    }
    const secrets: Record<string, string> = {
      'provider token': TEST_TOKEN,
      'wrong provider token': WRONG_TOKEN,
      'signing secret': TEST_SIGNING_SECRET,
      'signing key': TEST_SIGNING_SECRET.slice('whsec_'.length),
      'user hash secret': stack.env()['AI_STAGING_USER_HASH_SECRET']!,
      'auth secret': TEST_SECRETS.AUTH_SECRET,
      's3 secret': S3_SECRET,
      'dashboard password': DASHBOARD_PASSWORD,
      'dashboard basic credential': Buffer.from(`ops:${DASHBOARD_PASSWORD}`).toString('base64'),
      'agent password': PASSWORD,
      'session token': sessionToken,
      'session cookie': cookie,
    };
    const hits = Object.entries(secrets)
      .filter(([, value]) => output.includes(value))
      .map(([name]) => name);
    expect(hits).toEqual([]);
    expect(output.match(/X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token/gi) ?? []).toEqual([]);
    expect(output).not.toMatch(/data:image\/[a-z]+;base64/i);
  }, 300_000);
});

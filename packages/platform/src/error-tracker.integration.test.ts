// Points the Sentry SDK at a local HTTP capture server and asserts what arrived.
import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { captureAlert, captureError, closeErrorTracker, flushErrorTracker, initErrorTracker } from './error-tracker';
import { createLogger } from './logger';
import { startSentryCaptureServer } from './testing/sentry-capture';
import type { SentryCaptureServer } from './testing/sentry-capture';

let capture: SentryCaptureServer;
const logChunks: string[] = [];

function logger() {
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logChunks.push(chunk.toString());
      callback();
    },
  });
  return createLogger({ service: 'worker', level: 'info', destination });
}

function logLines(): Record<string, unknown>[] {
  return logChunks.join('').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

beforeAll(async () => {
  capture = await startSentryCaptureServer();
});

afterAll(async () => {
  await closeErrorTracker();
  await capture.close();
});

beforeEach(() => {
  capture.envelopes.length = 0;
  logChunks.length = 0;
});

// Secret values are generated at run time: the SDK attaches the source lines around each stack
// frame, so a literal in this file would reach the capture server as code rather than as data.
const SIGNATURE = randomUUID();
const TOKEN = `r8_${randomUUID().replaceAll('-', '')}`;
const COOKIE = randomUUID();
const SIGNING_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const SIGNED = `https://s3.example.com/staged/o.webp?X-Amz-Signature=${SIGNATURE}`;

// Order matters: the SDK is process-global, so the "off" case runs before the SDK is started.
describe('error tracker', () => {
  it('without a DSN only logs, and sends nothing', async () => {
    expect(initErrorTracker({ environment: 'ci', release: 'r-1', service: 'worker', logger: logger() })).toEqual({ enabled: false });
    captureAlert({ message: 'PENDING job older than 5 minutes', level: 'warning', tags: { jobId: 'job-0', errorCode: 'STALE_PENDING' } });
    await expect(flushErrorTracker()).resolves.toBe(true);
    expect(logLines()).toEqual([
      expect.objectContaining({ level: 'warn', event: 'alert', jobId: 'job-0', errorCode: 'STALE_PENDING', msg: 'PENDING job older than 5 minutes' }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(capture.envelopes).toEqual([]);
  });

  it('sends alerts and errors with environment, release, service, job ID and error code, without secrets', async () => {
    const { dsn } = capture;
    expect(initErrorTracker({ dsn, environment: 'ci', release: 'r-1', service: 'worker', logger: logger() })).toEqual({ enabled: true });

    captureAlert({
      message: `output download failed: GET ${SIGNED}`,
      level: 'error',
      tags: { jobId: 'job-1', errorCode: 'OUTPUT_DOWNLOAD_FAILED', attempt: 2, unused: undefined },
      extra: { providerApiToken: TOKEN, signedUrl: SIGNED, headers: { cookie: `sid=${COOKIE}` }, note: `Bearer ${TOKEN}` },
    });
    captureError(new Error(`verification failed with ${SIGNING_SECRET}`), {
      tags: { jobId: 'job-2', errorCode: 'WEBHOOK_SECRET' },
    });
    await expect(flushErrorTracker(5_000)).resolves.toBe(true);

    const received = capture.events();
    expect(received).toHaveLength(2);
    const [alert, error] = received as [Record<string, unknown>, Record<string, unknown>];
    expect(alert).toMatchObject({
      level: 'error',
      environment: 'ci',
      release: 'r-1',
      message: 'output download failed: GET https://s3.example.com/staged/o.webp',
      tags: { jobId: 'job-1', errorCode: 'OUTPUT_DOWNLOAD_FAILED', attempt: 2, service: 'worker' },
    });
    expect(alert.tags).not.toHaveProperty('unused');
    expect(error).toMatchObject({ environment: 'ci', release: 'r-1', tags: { jobId: 'job-2', errorCode: 'WEBHOOK_SECRET', service: 'worker' } });

    const everything = JSON.stringify(capture.envelopes) + logChunks.join('');
    for (const secret of [SIGNATURE, TOKEN.slice(3), COOKIE, SIGNING_SECRET.slice(6)]) expect(everything).not.toContain(secret);

    expect(logLines()).toEqual([
      expect.objectContaining({ level: 'error', event: 'alert', jobId: 'job-1', errorCode: 'OUTPUT_DOWNLOAD_FAILED' }),
      expect.objectContaining({ level: 'error', event: 'alert', jobId: 'job-2', errorCode: 'WEBHOOK_SECRET' }),
    ]);
  });
});

// Points the Sentry SDK at a local HTTP capture server and asserts what arrived.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { captureAlert, captureError, closeErrorTracker, flushErrorTracker, initErrorTracker } from './error-tracker';
import { createLogger } from './logger';

interface Envelope {
  header: Record<string, unknown>;
  items: { header: Record<string, unknown>; payload: Record<string, unknown> }[];
}

let server: Server;
let port: number;
const envelopes: Envelope[] = [];
const logChunks: string[] = [];

function parseEnvelope(body: string): Envelope {
  const lines = body.split('\n').filter((line) => line.length > 0);
  const header = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
  const items: Envelope['items'] = [];
  for (let i = 1; i + 1 < lines.length; i += 2) {
    items.push({ header: JSON.parse(lines[i] ?? '{}'), payload: JSON.parse(lines[i + 1] ?? '{}') });
  }
  return { header, items };
}

function events(): Record<string, unknown>[] {
  return envelopes.flatMap((e) => e.items.filter((item) => item.header.type === 'event').map((item) => item.payload));
}

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
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
      envelopes.push(parseEnvelope(body.toString('utf8')));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await closeErrorTracker();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  envelopes.length = 0;
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
    expect(envelopes).toEqual([]);
  });

  it('sends alerts and errors with environment, release, service, job ID and error code, without secrets', async () => {
    const dsn = `http://publickey@127.0.0.1:${port}/42`;
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

    const received = events();
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

    const everything = JSON.stringify(envelopes) + logChunks.join('');
    for (const secret of [SIGNATURE, TOKEN.slice(3), COOKIE, SIGNING_SECRET.slice(6)]) expect(everything).not.toContain(secret);

    expect(logLines()).toEqual([
      expect.objectContaining({ level: 'error', event: 'alert', jobId: 'job-1', errorCode: 'OUTPUT_DOWNLOAD_FAILED' }),
      expect.objectContaining({ level: 'error', event: 'alert', jobId: 'job-2', errorCode: 'WEBHOOK_SECRET' }),
    ]);
  });
});

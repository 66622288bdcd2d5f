/**
 * Loopback servers the simulator tests (and other packages' tests) use: a webhook receiver that
 * records raw callbacks with a scriptable status, and a file server for input photos; and the
 * Jest lifecycle the simulator's own test files share.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach } from '@jest/globals';
import { startProviderSimulator } from './simulator';
import type { ProviderSimulator, ProviderSimulatorOptions } from './simulator';
import { makeTestPhoto } from './test-photo';
import type { PredictionInput } from '@staging/provider/provider-wire';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  respondedWith: number;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('a server listening on TCP has a port');
  return `http://127.0.0.1:${address.port}`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * How long a wait for an event may take before it counts as a hang. A busy machine (the whole
 * suite on two cores) only makes a callback later, never wrong, so this is a hang guard, not a
 * speed limit; it stays below the Jest test timeout so a hang names what it waited for.
 */
export const HANG_GUARD_MS = 90_000;

export async function waitFor<T>(read: () => T | undefined | false, options: { timeoutMs?: number; what?: string } = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? HANG_GUARD_MS);
  for (;;) {
    const value = read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what ?? 'condition'}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Answers each callback with `statusFor(n)` (n = 1-based index of the request); default 204. */
export async function startWebhookReceiver(statusFor: (n: number) => number = () => 204) {
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const status = statusFor(received.length + 1);
      received.push({ path: req.url ?? '', headers: req.headers, rawBody: Buffer.concat(chunks), respondedWith: status });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  const origin = await listen(server);
  return { origin, received, stop: () => close(server) };
}

/** A valid gpt-image-2 input for `photoUrl`; tests override what they are about. */
export function predictionInputFor(photoUrl: string, overrides: Partial<PredictionInput> = {}): PredictionInput {
  return {
    prompt: 'Stage this room as a modern living room',
    input_images: [photoUrl],
    aspect_ratio: '1:1',
    quality: 'medium',
    output_format: 'jpeg',
    output_compression: 92,
    user_id: 'f'.repeat(64),
    ...overrides,
  };
}

/** Serves fixed files by path; anything else is 404. Records every requested path. */
export async function startFileServer(files: Record<string, { body: Buffer; contentType: string }>) {
  const requested: string[] = [];
  const server = createServer((req, res) => {
    requested.push(req.url ?? '');
    const file = files[(req.url ?? '').split('?')[0] ?? ''];
    if (!file) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.body.length });
    res.end(file.body);
  });
  const origin = await listen(server);
  return { origin, requested, stop: () => close(server) };
}

export interface SimulatorTestContext {
  sim: ProviderSimulator;
  /** makeInputPhoto(), served at /photo.jpg. */
  photo: Buffer;
  files: Awaited<ReturnType<typeof startFileServer>>;
  /** A new one per test; a test may replace it, and the replacement is the one stopped. */
  receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
}

/**
 * Registers the lifecycle of a simulator test file: one simulator and one file server (the input
 * photo plus `extraFiles`) per file, a fresh webhook receiver per test, and the simulator reset and
 * settled after each test so that no scripted fault or late delivery reaches the next one.
 */
export function useSimulatorTestContext(
  simulator: ProviderSimulatorOptions,
  extraFiles: Parameters<typeof startFileServer>[0] = {},
): SimulatorTestContext {
  // Filled in by beforeAll and beforeEach before any test reads it; Jest gives no earlier point.
  const ctx = {} as SimulatorTestContext;
  beforeAll(async () => {
    ctx.photo = await makeTestPhoto();
    ctx.files = await startFileServer({ '/photo.jpg': { body: ctx.photo, contentType: 'image/jpeg' }, ...extraFiles });
    ctx.sim = await startProviderSimulator(simulator);
  });
  afterAll(async () => {
    await ctx.sim.stop();
    await ctx.files.stop();
  });
  beforeEach(async () => {
    ctx.receiver = await startWebhookReceiver();
  });
  afterEach(async () => {
    ctx.sim.reset();
    await ctx.sim.settle();
    await ctx.receiver.stop();
  });
  return ctx;
}

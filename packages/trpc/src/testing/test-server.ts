// Test support (not used by production code): a real node:http server serving the tRPC fetch
// handler, real deps over the Jest run's Postgres/Redis, sessions for seeded users, and a minimal
// HTTP client speaking tRPC's plain-JSON wire format the way a non-TypeScript client would.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { incomingMessageToRequest } from '@trpc/server/adapters/node-http';
import { Redis } from 'ioredis';
import { createDb } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { createLogger } from '@staging/platform/logger';
import { SESSION_COOKIE_NAME } from '@staging/services/auth/cookies';
import { createSession } from '@staging/services/auth/sessions';
import { createStagingEventHub } from '@staging/services/live/staging-event-hub';
import { createSearchQueue } from '@staging/services/search/search-queue';
import { createStagingQueue } from '@staging/services/staging/staging-queue';
import type { TrpcDeps } from '../context';
import { createTrpcFetchHandler } from '../http';
import { systemClock } from '@staging/services/staging/staging-deps';

/** Log lines at error level, so a test can assert that nothing was logged as a failure. */
export interface LogCapture {
  lines: Record<string, unknown>[];
}

export function env(name: 'DATABASE_URL' | 'VALKEY_URL' | 'QUEUE_SUFFIX'): string {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set; run through the Jest global setup`);
  return value;
}

/** Connections shared by one test file; close them in afterAll. */
export interface TestResources {
  db: Db;
  redis: Redis;
  close(): Promise<void>;
}

export function openTestResources(): TestResources {
  const db = createDb(env('DATABASE_URL'), { maxConnections: 20 });
  const redis = new Redis(env('VALKEY_URL'), { lazyConnect: false });
  return {
    db,
    redis,
    async close() {
      await db.$disconnect();
      redis.disconnect();
    },
  };
}

/** A per-file queue suffix under the run's own, so files never share Redis counters. */
export function uniqueQueueSuffix(): string {
  return `${env('QUEUE_SUFFIX')}-${randomUUID().slice(0, 8)}`;
}

export function createTestDeps(
  resources: TestResources,
  overrides: Partial<TrpcDeps> = {},
): { deps: TrpcDeps; logs: LogCapture } {
  const logs: LogCapture = { lines: [] };
  const logger = createLogger({
    service: 'trpc-test',
    level: 'warn',
    destination: { write: (line: string) => void logs.lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const queueSuffix = overrides.queueSuffix ?? uniqueQueueSuffix();
  const deps: TrpcDeps = {
    db: resources.db,
    redis: resources.redis,
    logger,
    clock: systemClock,
    queueSuffix,
    allowedOrigins: ['https://app.example.test'],
    trustedProxyHops: 0,
    staging: {
      enabled: false,
      dailyPurchaseCap: null,
      producer: { quality: 'medium', aspectRatio: '1:1', outputFormat: 'jpeg', outputCompression: 92 },
      legacyAliasSunsetAt: new Date('2027-01-01T00:00:00Z'),
      providerModel: 'openai/gpt-image-2',
    },
    // Queues on the shared connection: creating them opens nothing until a job is added.
    stagingQueue: createStagingQueue(resources.redis, queueSuffix),
    searchQueue: createSearchQueue(resources.redis, queueSuffix),
    // Connects only when a test opens a live stream; such a test closes it.
    stagingEvents: createStagingEventHub({ db: resources.db, logger }),
    ...overrides,
  };
  return { deps, logs };
}

export interface TestServer {
  /** Base URL of the router, e.g. http://127.0.0.1:PORT/api/trpc */
  url: string;
  close(): Promise<void>;
}

/** Serves `createTrpcFetchHandler(deps)` at /api/trpc on an ephemeral port. */
export async function startTestServer(deps: TrpcDeps): Promise<TestServer> {
  const handler = createTrpcFetchHandler(deps);
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const response = await handler(incomingMessageToRequest(req, res, { maxBodySize: null }));
      res.statusCode = response.status;
      response.headers.forEach((value, name) => res.setHeader(name, value));
      if (response.body === null) {
        res.end();
        return;
      }
      // Streamed, not buffered: a live stream (Server-Sent Events) has no end to wait for.
      const body = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
      res.once('close', () => body.destroy());
      body.once('error', () => res.destroy());
      body.pipe(res);
    })().catch((error: unknown) => {
      res.statusCode = 599;
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/trpc`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A fresh user (no password: these tests never log in through a form) and its session cookie. */
export async function createSignedInUser(
  db: Db,
  options: { role?: 'AGENT' | 'ADMIN'; now?: Date } = {},
): Promise<{ id: string; role: 'AGENT' | 'ADMIN'; cookie: string }> {
  const role = options.role ?? 'AGENT';
  const user = await db.user.create({
    data: { email: `inv-${randomUUID()}@example.test`, name: 'Inventory Tester', passwordHash: 'unused', role },
    select: { id: true },
  });
  // `now` is the clock of the server under test, which decides whether the session is live.
  const { token } = await createSession(db, user.id, { now: options.now ?? new Date(), ttlMs: 3_600_000 });
  return { id: user.id, role, cookie: `${SESSION_COOKIE_NAME}=${token}` };
}

export interface TrpcErrorBody {
  message: string;
  code: number;
  data: {
    code: string;
    httpStatus: number;
    path?: string;
    appCode: string;
    issues?: { path: (string | number)[]; message: string }[];
    retryAfterSeconds?: number;
    itemCount?: number;
    stack?: string;
  };
}

export type CallResult<T = unknown> =
  | { ok: true; status: number; data: T; headers: Headers }
  | { ok: false; status: number; error: TrpcErrorBody; headers: Headers };

export interface CallOptions {
  cookie?: string;
  headers?: Record<string, string>;
  /** A raw request body instead of JSON.stringify(input) (invalid JSON tests). */
  rawBody?: string;
}

/**
 * Calls one procedure the way tRPC's wire format defines it without a transformer: queries as
 * GET ?input=<json>, mutations as POST with the JSON input as the body.
 */
export async function callProcedure<T = unknown>(
  baseUrl: string,
  kind: 'query' | 'mutation',
  path: string,
  input: unknown,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie !== undefined) headers['cookie'] = options.cookie;
  let response: Response;
  if (kind === 'query') {
    const query = input === undefined ? '' : `?input=${encodeURIComponent(options.rawBody ?? JSON.stringify(input))}`;
    response = await fetch(`${baseUrl}/${path}${query}`, { headers });
  } else {
    headers['content-type'] = 'application/json';
    response = await fetch(`${baseUrl}/${path}`, {
      method: 'POST',
      headers,
      body: options.rawBody ?? JSON.stringify(input),
    });
  }
  const body = (await response.json()) as { result?: { data: T }; error?: TrpcErrorBody };
  if (body.error !== undefined) return { ok: false, status: response.status, error: body.error, headers: response.headers };
  return { ok: true, status: response.status, data: (body.result as { data: T }).data, headers: response.headers };
}

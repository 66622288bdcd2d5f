// Property-based robustness: random bodies, paths, queries and headers against every route and
// procedure, with and without a session. Whatever arrives, the answer is a 2xx-4xx, never a 500.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { TEST_SECRETS } from '@staging/config/test-env';
import { createStagingJob } from '@staging/db/testing/factories';
import { signWebhook } from '@staging/provider/webhook-signing';
import { isNotReadyAnswer } from '@staging/stack/hostile-requests';
import { startApi, stopS3 } from './support/api-test-kit';
import type { ApiHarness } from './support/api-test-kit';
import { call, imageBytes, seedActors, seedListing } from './support/fixtures';
import type { Actors, Listing } from './support/fixtures';

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

let api: ApiHarness;
let actors: Actors;
let listing: Listing;
let attemptId: string;
let validJpeg: Buffer;

beforeAll(async () => {
  // Generous login limits: the fuzzer is not testing the limiter and must not be stopped by it.
  api = await startApi({ loginRateLimits: { perIp: 100_000, failuresPerAccountAndIp: 100_000, failuresPerAccountBeforeDelay: 100_000, delayPerFailureMs: 0, maxDelayMs: 0, windowSeconds: 60 } });
  actors = await seedActors(api.db);
  listing = await seedListing(api.db, api.storage, actors);
  const job = await createStagingJob(api.db, {
    original: listing.original,
    job: { status: 'PROCESSING' },
    attempts: [{ status: 'ACTIVE', providerPredictionId: `pred_${randomUUID()}` }],
  });
  attemptId = job.attempts[0]!.id;
  validJpeg = await imageBytes('jpeg');
});
afterAll(async () => {
  await api.close();
  await stopS3();
});

/** JSON values of every shape, including the awkward strings (NUL, lone surrogates, emoji). */
const jsonValue = fc.jsonValue({ maxDepth: 3 });
const awkwardString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.constantFrom('', ' ', '\u0000', '\uD800', '../..', '%00', 'null', '__proto__', 'constructor', '🏠', 'a'.repeat(300)),
);
const idLike = fc.oneof(awkwardString, fc.uuid(), fc.constant(() => listing.original.id).map((f) => f()));
const cookie = fc.constantFrom<string | undefined>(undefined, 'owner', 'unrelated', 'admin');
/** A JSON document that may break the schema, plus objects built from known field names. */
const bodyValue = fc.oneof(
  jsonValue,
  fc.record(
    {
      email: fc.oneof(awkwardString, jsonValue),
      password: fc.oneof(awkwardString, jsonValue),
      isMain: fc.oneof(fc.boolean(), jsonValue),
      roomType: fc.oneof(fc.constantFrom('KITCHEN', 'TV_ROOM', null), awkwardString),
      displayOrder: fc.oneof(fc.integer(), fc.double(), jsonValue),
    },
    { requiredKeys: [] },
  ),
);

/** Percent-encodes any string, lone surrogates included (as the bytes Node would send for them). */
function encode(value: string): string {
  return [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}

function cookieFor(who: string | undefined): string | undefined {
  if (who === undefined) return undefined;
  return actors.cookies[who as 'owner' | 'unrelated' | 'admin'];
}

/** What a request got: its path, status and body (read whole, so keep-alive sockets are reused). */
interface Answer {
  path: string;
  status: number;
  body: string;
}

/** Any 5xx fails, but for the readiness probe's "not ready" (the rule of the hostile-client sweeps). */
function assertNot500(answer: Answer, label: string): void {
  if (answer.status >= 500 && !isNotReadyAnswer(answer.path, answer)) throw new Error(`${label} answered ${answer.status}`);
}

async function send(
  method: string,
  path: string,
  options: { who?: string | undefined; body?: string | Uint8Array | FormData; headers?: Record<string, string> },
): Promise<Answer> {
  const who = cookieFor(options.who);
  const response = await call(`${api.url}${path}`, {
    method,
    ...(who === undefined ? {} : { cookie: who }),
    ...(options.body === undefined ? {} : { body: options.body as RequestInit['body'] }),
    headers: options.headers ?? {},
  });
  return { path, status: response.status, body: await response.text() };
}

const rawBody = fc.oneof(
  jsonValue.map((value) => JSON.stringify(value)),
  bodyValue.map((value) => JSON.stringify(value)),
  fc.string({ unit: 'binary', maxLength: 200 }),
);
const contentType = fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '');

describe('random input never produces a 5xx', () => {
  const jsonRoutes: [string, (id: string) => string][] = [
    ['POST', () => '/api/auth/login'],
    ['POST', () => '/api/auth/logout'],
    ['PATCH', (id) => `/api/property-images/${id}`],
    ['DELETE', (id) => `/api/property-images/${id}`],
    ['POST', (id) => `/api/properties/${id}/images`],
    ['GET', () => '/api/auth/me'],
    ['GET', (id) => `/api/property-images/${id}/content`],
    ['GET', (id) => `/api/public/properties/${id}`],
    ['GET', (id) => `/api/public/images/${id}/content`],
    ['GET', (id) => `/healthz/${id}`],
    ['GET', () => '/readyz'],
    ['POST', (id) => `/api/${id}`],
  ];

  it.each(jsonRoutes)('%s %s with random bodies, ids and content types', async (method, path) => {
    await fc.assert(
      fc.asyncProperty(idLike, rawBody, contentType, cookie, async (id, body, type, who) => {
        const useBody = method !== 'GET';
        const response = await send(method, path(encode(id)), {
          who,
          ...(useBody ? { body } : {}),
          headers: type === '' ? {} : { 'content-type': type },
        });
        assertNot500(response, `${method} ${path(id)}`);
      }),
      { numRuns: RUNS },
    );
  });

  it('PATCH an existing image with random JSON bodies as its owner', async () => {
    await fc.assert(
      fc.asyncProperty(bodyValue, fc.constantFrom('original', 'cover', 'pending', 'approved'), async (body, which) => {
        const id = listing[which as 'original'].id;
        const response = await send('PATCH', `/api/property-images/${id}`, {
          who: 'owner',
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        });
        assertNot500(response, 'PATCH image');
      }),
      { numRuns: RUNS },
    );
  });

  it('POST multipart uploads with random parts', async () => {
    const part = fc.record({
      field: fc.constantFrom('file', 'roomType', 'other', ''),
      asFile: fc.boolean(),
      content: fc.oneof(fc.uint8Array({ maxLength: 500 }), fc.constant(new Uint8Array(0)), fc.constant(null)),
      text: awkwardString,
    });
    await fc.assert(
      fc.asyncProperty(fc.array(part, { maxLength: 4 }), cookie, async (parts, who) => {
        const form = new FormData();
        for (const p of parts) {
          if (p.asFile) form.append(p.field, new Blob([p.content === null ? new Uint8Array(validJpeg) : p.content]), 'f.bin');
          else form.append(p.field, p.text);
        }
        assertNot500(await send('POST', `/api/properties/${listing.propertyId}/images`, { who, body: form }), 'POST upload');
      }),
      { numRuns: RUNS },
    );
  });

  it('GET /api/public/search with random query strings', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom('q', 'limit', 'q[]', 'q[a]', 'x'), awkwardString), { maxLength: 4 }), async (pairs) => {
        const query = pairs.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&');
        assertNot500(await send('GET', `/api/public/search?${query}`, {}), 'search');
      }),
      { numRuns: RUNS },
    );
  });

  it('POST webhooks with random bodies and headers, signed or not', async () => {
    await fc.assert(
      fc.asyncProperty(
        rawBody,
        fc.boolean(),
        fc.oneof(fc.constant(attemptId), idLike),
        fc.record({ 'webhook-id': awkwardString, 'webhook-timestamp': awkwardString, 'webhook-signature': awkwardString }, { requiredKeys: [] }),
        fc.record({ id: awkwardString, status: fc.constantFrom('succeeded', 'failed', 'processing', 'bogus') }),
        async (body, signed, attempt, junkHeaders, prediction) => {
          const payload = signed ? JSON.stringify({ ...prediction, created_at: new Date().toISOString() }) : body;
          const headers: Record<string, string> = signed
            ? { ...signWebhook({ secret: TEST_SECRETS.PROVIDER_WEBHOOK_SIGNING_SECRET, webhookId: `msg_${randomUUID()}`, timestamp: new Date(), body: payload }) }
            : Object.fromEntries(Object.entries(junkHeaders).map(([k, v]) => [k, v.replace(/[^\x20-\x7e]/g, '')]));
          const response = await send('POST', `/api/webhooks/provider/staging/${encode(attempt)}`, { body: payload, headers });
          assertNot500(response, 'webhook');
        },
      ),
      { numRuns: RUNS },
    );
  });

  const procedures: [string, 'query' | 'mutation'][] = [
    ['property.list', 'query'],
    ['property.get', 'query'],
    ['property.setImagePublic', 'mutation'],
    ['property.setCover', 'mutation'],
    ['property.setNewImagesPublic', 'mutation'],
    ['ai.submitStaging', 'mutation'],
    ['ai.cancelStaging', 'mutation'],
    ['ai.getJob', 'query'],
    ['ai.listJobs', 'query'],
    ['ai.approveStagedVariant', 'mutation'],
    ['ai.rejectStagedVariant', 'mutation'],
    ['public.getProperty', 'query'],
    ['public.search', 'query'],
  ];
  const procedureInput = fc.oneof(
    jsonValue,
    fc.record(
      {
        propertyId: idLike,
        imageId: fc.oneof(idLike, fc.constant(null)),
        aiJobId: idLike,
        isPublic: fc.oneof(fc.boolean(), jsonValue),
        newImagesPublic: fc.oneof(fc.boolean(), jsonValue),
        reason: awkwardString,
        q: awkwardString,
        limit: fc.oneof(fc.integer(), jsonValue),
        cursor: fc.oneof(awkwardString, fc.base64String({ maxLength: 60 }).map((s) => s.replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, ''))),
        statuses: fc.array(fc.constantFrom('PENDING', 'SUCCESS', 'bogus'), { maxLength: 3 }),
        assignments: fc.array(
          fc.record({ originalImageId: idLike, roomType: fc.constantFrom('KITCHEN', 'TV_ROOM', 'x'), style: fc.oneof(fc.constantFrom('MODERN', 'modern', 'no-furniture'), awkwardString) }, { requiredKeys: [] }),
          { maxLength: 3 },
        ),
      },
      { requiredKeys: [] },
    ),
  );

  it.each(procedures)('tRPC %s (%s) with random inputs', async (path, type) => {
    await fc.assert(
      fc.asyncProperty(procedureInput, cookie, async (input, who) => {
        const target = `/api/trpc/${path}`;
        const response =
          type === 'query'
            ? await send('GET', `${target}?input=${encode(JSON.stringify(input))}`, { who })
            : await send('POST', target, { who, body: JSON.stringify(input), headers: { 'content-type': 'application/json' } });
        assertNot500(response, path);
      }),
      { numRuns: RUNS },
    );
  });

  it('crafted cursors that decode to odd identifiers are refused, not 500', async () => {
    for (const decoded of ['2020-01-01T00:00:00.000Z|\u0000', '2020-01-01T00:00:00.000Z|\uD800x', '9999-99-99|id', '|']) {
      const cursor = Buffer.from(decoded, 'utf8').toString('base64url');
      const response = await send('GET', `/api/trpc/ai.listJobs?input=${encode(JSON.stringify({ cursor }))}`, { who: 'owner' });
      assertNot500(response, `ai.listJobs cursor ${JSON.stringify(decoded)}`);
    }
  });
});

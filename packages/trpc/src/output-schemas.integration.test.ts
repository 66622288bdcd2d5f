// The declared answers fit real data and hold the line against drift: for each router, an answer
// read over HTTP from seeded rows passes its procedure's output schema, and the same answer with
// one field more (a column a select started returning, say) makes tRPC fail with
// INTERNAL_SERVER_ERROR instead of sending it to a client.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { initTRPC } from '@trpc/server';
import type { z } from 'zod';
import { createOriginalImage, createProperty, createPropertyUnit, createStagingJob } from '@staging/db/testing/factories';
import { deleteKeysMatching } from '@staging/platform/redis-keys';
import { rebuildSearchDocument } from '@staging/services/search/build-search-document';
import type { TrpcDeps } from './context';
import { appRouter } from './root';
import { callProcedure, createSignedInUser, createTestDeps, openTestResources, startTestServer } from './testing/test-server';
import type { TestServer } from './testing/test-server';

const resources = openTestResources();
let deps: TrpcDeps;
let server: TestServer;
let cookie: string;
let propertyId: string;
let aiJobId: string;

beforeAll(async () => {
  deps = createTestDeps(resources).deps;
  server = await startTestServer(deps);
  const owner = await createSignedInUser(resources.db);
  cookie = owner.cookie;
  const property = await createProperty(resources.db, { ownerAgentId: owner.id });
  propertyId = property.id;
  const original = await createOriginalImage(resources.db, { propertyId });
  await createPropertyUnit(resources.db, { propertyId, name: 'Tower A' });
  aiJobId = (await createStagingJob(resources.db, { original })).id;
  await rebuildSearchDocument(resources.db, resources.redis, propertyId, { queueSuffix: deps.queueSuffix });
});

afterAll(async () => {
  await server.close();
  await deps.stagingQueue.close();
  await deleteKeysMatching(resources.redis, `*${deps.queueSuffix}*`);
  await resources.close();
});

type Answer = Record<string, unknown>;

/** Adds `field` to the first element of the array `key` of the answer. */
const withFieldIn =
  (key: string, field: string) =>
  (answer: Answer): Answer => {
    const [first, ...rest] = answer[key] as Answer[];
    if (first === undefined) throw new Error(`${key} is empty: the seeded rows should have filled it`);
    return { ...answer, [key]: [{ ...first, [field]: 'drifted' }, ...rest] };
  };
const withTopLevelField = (answer: Answer): Answer => ({ ...answer, unexpected: true });

test.each<[string, () => unknown, (answer: Answer) => Answer]>([
  ['ai.getJob', () => ({ aiJobId }), withTopLevelField],
  ['ai.jobHistory', () => ({ propertyId }), withFieldIn('items', 'requestedByUserId')],
  ['ai.spendSummary', () => ({}), withTopLevelField],
  ['ai.startLine', () => undefined, withTopLevelField],
  ['property.get', () => ({ propertyId }), withFieldIn('images', 'objectKey')],
  ['property.list', () => undefined, withFieldIn('items', 'ownerEmail')],
  ['public.getProperty', () => ({ propertyId }), withFieldIn('images', 'objectKey')],
  ['public.search', () => undefined, withFieldIn('results', 'ownerAgentId')],
  ['inventory.getUnits', () => ({ propertyId }), withFieldIn('units', 'deletedAt')],
])('%s: the real answer fits its schema, and the answer with a field more fails', async (path, input, drift) => {
  const result = await callProcedure<Answer>(server.url, 'query', path, input(), { cookie });
  if (!result.ok) throw new Error(`${path} answered ${result.status}: ${result.error.message}`);

  // The same schema, answering the real answer and then the drifted one from a resolver of its own.
  const schema = (appRouter._def.procedures as unknown as Record<string, { _def: { output: z.ZodType } }>)[path]!._def.output;
  const probe = initTRPC.create();
  const answering = (answer: Answer) => probe.createCallerFactory(probe.router({ read: probe.procedure.output(schema).query(() => answer) }))({}).read();
  await expect(answering(result.data)).resolves.toEqual(result.data);
  await expect(answering(drift(result.data))).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR', message: 'Output validation failed' });
});

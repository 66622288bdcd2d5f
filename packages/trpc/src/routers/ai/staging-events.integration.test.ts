// ai.stagingEvents end to end over HTTP: a real submission and cancel write the rows, the database
// triggers notify, the process's one listening connection hears it, and each open stream (read as
// a browser's EventSource reads it) gets the change only when its user may read the property.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createOriginalImage, createProperty } from '@staging/db/testing/factories';
import { CHANGE_NOTIFICATIONS_CHANNEL } from '@staging/db/change-notifications';
import { deleteKeysMatching } from '@staging/platform/redis-keys';
import { createStagingEventHub, LIVE_STREAM_LIMITS } from '@staging/services/live/staging-event-hub';
import type { TrpcDeps } from '../../context';
import { openLiveStream } from '../../testing/live-stream';
import type { LiveStream, ServerSentEvent } from '../../testing/live-stream';
import { callProcedure, createSignedInUser, createTestDeps, openTestResources, startTestServer } from '../../testing/test-server';
import type { TestServer } from '../../testing/test-server';

const resources = openTestResources();
const streams: LiveStream[] = [];
let deps: TrpcDeps;
let server: TestServer;

const MAX_STREAMS_PER_USER = 3;

beforeAll(async () => {
  const base = createTestDeps(resources).deps;
  deps = {
    ...base,
    staging: { ...base.staging, enabled: true },
    stagingEvents: createStagingEventHub({
      db: resources.db,
      logger: base.logger,
      limits: { ...LIVE_STREAM_LIMITS, maxStreamsPerUser: MAX_STREAMS_PER_USER },
      listener: { minRetryMs: 20 },
    }),
  };
  server = await startTestServer(deps);
});

afterAll(async () => {
  for (const stream of streams) stream.close();
  await server.close();
  await deps.stagingEvents.close();
  await deps.stagingQueue.close();
  await deleteKeysMatching(resources.redis, `*${deps.queueSuffix}*`);
  await resources.close();
});

async function open(headers: Record<string, string>): Promise<LiveStream> {
  const stream = await openLiveStream(server.url, 'ai.stagingEvents', headers);
  streams.push(stream);
  return stream;
}

const isMessage = (match: (data: Record<string, unknown>) => boolean) => (event: ServerSentEvent) =>
  event.event === 'message' && match(event.data as Record<string, unknown>);
const isResync = isMessage((data) => data.kind === 'resync');
const isError = (code: string) => (event: ServerSentEvent) =>
  event.event === 'serialized-error' && (event.data as { data: { code: string } }).data.code === code;

/** Waits until the hub holds `count` streams (a closed one leaves when its request ends). */
async function streamsOpen(count: number): Promise<void> {
  while (deps.stagingEvents.streamCount() !== count) await new Promise((resolve) => setTimeout(resolve, 10));
}

test('a job submitted and canceled reaches the owner, the assigned agent and an admin, and nothing reaches another agent', async () => {
  const owner = await createSignedInUser(resources.db);
  const assigned = await createSignedInUser(resources.db);
  const supporter = await createSignedInUser(resources.db, { role: 'ADMIN' });
  const stranger = await createSignedInUser(resources.db);
  const property = await createProperty(resources.db, { ownerAgentId: owner.id, assignedAgentIds: [assigned.id] });
  const strangersOwn = await createProperty(resources.db, { ownerAgentId: stranger.id });
  const original = await createOriginalImage(resources.db, { propertyId: property.id });

  const [ownerStream, assignedStream, adminStream, strangerStream] = await Promise.all(
    [owner, assigned, supporter, stranger].map((user) => open({ cookie: user.cookie })),
  );
  expect(ownerStream!.status).toBe(200);
  // Each stream is one user's: no cache may keep it, and one that ignores that keys it by cookie.
  expect(ownerStream!.headers.get('cache-control')).toBe('private, no-store, no-transform');
  expect(ownerStream!.headers.get('vary')).toBe('Cookie');
  expect(ownerStream!.headers.get('content-type')).toBe('text/event-stream');
  // Every stream begins with a resync: the page reads again what it loaded before the stream.
  for (const stream of [ownerStream, assignedStream, adminStream, strangerStream]) await stream!.waitFor(isResync);

  const submitted = await callProcedure<{ items: { aiJobId: string; disposition: string }[] }>(
    server.url,
    'mutation',
    'ai.submitStaging',
    { assignments: [{ originalImageId: original.id, roomType: 'BEDROOM', style: 'MODERN' }] },
    { cookie: owner.cookie },
  );
  if (!submitted.ok) throw new Error(JSON.stringify(submitted.error));
  const jobId = submitted.data.items[0]!.aiJobId;
  const canceled = await callProcedure(server.url, 'mutation', 'ai.cancelStaging', { aiJobId: jobId }, { cookie: owner.cookie });
  expect(canceled.ok).toBe(true);

  const ofProperty = (stream: LiveStream) =>
    stream.messages().filter((data) => (data as { propertyId?: string }).propertyId === property.id);
  const changes = [
    { kind: 'job', propertyId: property.id, jobId, status: 'PENDING' },
    { kind: 'job', propertyId: property.id, jobId, status: 'CANCELED' },
  ];
  for (const stream of [ownerStream!, assignedStream!, adminStream!]) {
    await stream.waitFor(isMessage((data) => data.jobId === jobId && data.status === 'CANCELED'));
    expect(ofProperty(stream)).toEqual(changes);
  }
  // The owner's stream carries nothing but its own property, though other tests write meanwhile.
  expect(ownerStream!.messages()).toEqual([{ kind: 'resync' }, ...changes]);

  // Notifications are handled in commit order: once a later change of the stranger's own property
  // arrived, anything of the other property would have arrived before it.
  await createOriginalImage(resources.db, { propertyId: strangersOwn.id });
  await strangerStream!.waitFor(isMessage((data) => data.propertyId === strangersOwn.id));
  expect(strangerStream!.messages()).toEqual([{ kind: 'resync' }, { kind: 'image', propertyId: strangersOwn.id, jobId: null, status: null }]);
});

test('refuses a stream without a session, from another site, and past the per-user limit with their status before it opens; a closed stream frees its place', async () => {
  const before = deps.stagingEvents.streamCount();
  const anonymous = await open({});
  expect(anonymous.status).toBe(401);
  await anonymous.waitFor(isError('UNAUTHORIZED'));

  const user = await createSignedInUser(resources.db);
  const crossSite = await open({ cookie: user.cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
  expect(crossSite.status).toBe(403);
  await crossSite.waitFor(isError('FORBIDDEN'));

  const tabs = await Promise.all(Array.from({ length: MAX_STREAMS_PER_USER }, () => open({ cookie: user.cookie })));
  for (const tab of tabs) await tab.waitFor(isResync);
  const oneTooMany = await open({ cookie: user.cookie });
  expect([oneTooMany.status, oneTooMany.headers.get('retry-after'), oneTooMany.headers.get('cache-control')]).toEqual([429, '60', 'private, no-store, no-transform']);
  await oneTooMany.waitFor(isError('TOO_MANY_REQUESTS'));
  expect(oneTooMany.messages()).toEqual([]);

  tabs[0]!.close();
  await streamsOpen(before + MAX_STREAMS_PER_USER - 1);
  await (await open({ cookie: user.cookie })).waitFor(isResync);
});

test('after the listening connection is lost (a Postgres restart), every stream is told to read again and events flow again', async () => {
  const owner = await createSignedInUser(resources.db);
  const property = await createProperty(resources.db, { ownerAgentId: owner.id });
  const stream = await open({ cookie: owner.cookie });
  await stream.waitFor(isResync);

  const terminated = await resources.db.$queryRaw<{ pid: number }[]>`
    SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity
    WHERE application_name = ${`listen:${CHANGE_NOTIFICATIONS_CHANNEL}`} AND datname = current_database()`;
  expect(terminated.length).toBeGreaterThan(0);

  await stream.waitFor((event) => stream.messages().filter((data) => (data as { kind: string }).kind === 'resync').length === 2 && isResync(event));
  await createOriginalImage(resources.db, { propertyId: property.id });
  await stream.waitFor(isMessage((data) => data.propertyId === property.id));
});

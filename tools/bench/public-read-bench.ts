// Public read benchmark: anonymous property detail and search over HTTP, requests per second of
// one api process (apps/api/src/main.ts) against a bare Express handler doing the same raw query
// or the same Redis reads (tools/bench/public-read-bare-server.ts), measured in the same run.
// Target (issue 13): the api at >= 0.6x the bare handler's req/s for each; a CDN in front,
// guided by the api's Cache-Control and ETag, carries the rest.
//
//   node_modules/.bin/tsx tools/bench/public-read-bench.ts [--seconds 4] [--rounds 3] [--concurrency 32]
//
// Data: 60 listings of one agent, each with 4 originals, 2 APPROVED variants and 1 pending one,
// all in the search index; detail requests cycle over the listings, search asks for a city word
// that half of them match.
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
// Relative imports: tools/bench has no package of its own; each package resolves its own deps.
import { createDb } from '../../packages/db/src/client';
import { createOriginalImage, createProperty, createStagedImage, createUser } from '../../packages/db/src/testing/factories';
import { createTestDatabase } from '../../packages/db/src/testing';
import { createRedis } from '../../packages/platform/src/queues';
import { rebuildSearchDocument } from '../../packages/services/src/search/build-search-document';
import { searchIndexKey } from '../../packages/services/src/search/search-index-keys';
import { startApiProcess } from './api-process';
import { printFigure } from './figures';
import { freePort, loadInTurns, printResults, startProcess, stopProcesses, summarize, waitForPort } from './http-load';
import type { LoadRequest, Server } from './http-load';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '32' },
  },
});
const LISTINGS = 60;

async function main(): Promise<void> {
  const database = await createTestDatabase();
  const queueSuffix = `-bench${randomBytes(4).toString('hex')}`;
  const valkeyUrl = process.env.VALKEY_URL ?? 'redis://127.0.0.1:6379';
  const db = createDb(database.url);
  const redis = createRedis(valkeyUrl, { role: 'worker', connectionName: 'public-read-bench' });
  const children: ChildProcess[] = [];
  const propertyIds: string[] = [];
  try {
    const owner = await createUser(db);
    for (let i = 0; i < LISTINGS; i += 1) {
      const property = await createProperty(db, { ownerAgentId: owner.id, title: `Listing ${i}`, city: i % 2 === 0 ? 'Lisbon' : 'Porto' });
      const originals = [];
      for (let n = 0; n < 4; n += 1) originals.push(await createOriginalImage(db, { propertyId: property.id }));
      for (const original of originals.slice(0, 2)) await createStagedImage(db, { original, reviewStatus: 'APPROVED' });
      await createStagedImage(db, { original: originals[3]! });
      await rebuildSearchDocument(db, redis, property.id, { queueSuffix });
      propertyIds.push(property.id);
    }

    const barePort = await freePort();
    const bareChild = startProcess('tools/bench/public-read-bare-server.ts', {
      PORT: String(barePort),
      DATABASE_URL: database.url,
      VALKEY_URL: valkeyUrl,
      QUEUE_SUFFIX: queueSuffix,
    });
    children.push(bareChild);
    await waitForPort(barePort, '/api/public/search');
    const bare: Server = { name: 'bare', port: barePort, pid: bareChild.pid! };
    const api = await startApiProcess('api', { databaseUrl: database.url, valkeyUrl, queueSuffix });
    children.push(api.child);

    let next = 0;
    const detail = (): LoadRequest => ({ method: 'GET', path: `/api/public/properties/${propertyIds[(next += 1) % LISTINGS]}` });
    const search = (): LoadRequest => ({ method: 'GET', path: '/api/public/search?q=lisbon' });
    const figures = [];
    for (const [what, request] of [
      ['property detail', detail],
      ['search', search],
    ] as const) {
      console.log(`\n${what}: warmup ${args.warmup}s each, then ${args.rounds} rounds of ${args.seconds}s each at concurrency ${args.concurrency}`);
      const servers = [
        { ...bare, name: `bare ${what}` },
        { ...api.server, name: `api ${what}` },
      ];
      const [bareResult, apiResult] = (
        await loadInTurns(servers, {
          rounds: Number(args.rounds),
          seconds: Number(args.seconds),
          warmupSeconds: Number(args.warmup),
          concurrency: Number(args.concurrency),
          next: request,
        })
      ).map(summarize);
      printResults([
        { name: servers[0]!.name, result: bareResult! },
        { name: servers[1]!.name, result: apiResult! },
      ]);
      figures.push({ name: `public ${what} req/s vs bare handler`, value: apiResult!.rps / bareResult!.rps, target: 0.6, better: 'higher' as const });
    }
    for (const figure of figures) printFigure(figure);
  } finally {
    await stopProcesses(children);
    await redis.del(searchIndexKey(queueSuffix), ...propertyIds.map((id) => `psearch:property:${id}`));
    await redis.quit();
    await db.$disconnect();
    await database.drop();
  }
}

await main();

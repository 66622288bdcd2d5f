// Public read benchmark: anonymous property detail and search over HTTP, requests per second of
// one api process (apps/api/src/main.ts) against a bare Express handler doing the same raw query
// or the same Redis reads (tools/bench/public-read-bare-server.ts), measured in the same run.
// Target: the api at >= 0.6x the bare handler's req/s for each; a CDN in front,
// guided by the api's Cache-Control and ETag, carries the rest.
//
//   node_modules/.bin/tsx tools/bench/public-read-bench.ts [--seconds 4] [--rounds 3] [--concurrency 32]
//
// Data: 60 listings of one agent, each with 4 originals, 2 APPROVED variants and 1 pending one,
// all in the search index; detail requests cycle over the listings, search asks for a city word
// that half of them match.
import { createOriginalImage, createProperty, createStagedImage, createUser } from '@staging/db/testing/factories';
import { rebuildSearchDocument } from '@staging/services/search/build-search-document';
import { freePort } from '@staging/stack/free-port';
import { openBenchStack, parseLoadArgs } from './bench-stack';
import { printFigure } from './figures';
import { loadInTurns, printResults, startProcess, summarize, waitForPort } from './http-load';
import type { LoadRequest, Server } from './http-load';

const LISTINGS = 60;

async function main(): Promise<void> {
  const stack = await openBenchStack('public-read-bench');
  const { db, redis, queueSuffix } = stack;
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
      DATABASE_URL: stack.databaseUrl,
      VALKEY_URL: stack.valkeyUrl,
      QUEUE_SUFFIX: queueSuffix,
    });
    stack.children.push(bareChild);
    await waitForPort(barePort, '/api/public/search');
    const bare: Server = { name: 'bare', port: barePort, pid: bareChild.pid! };
    const api = await stack.startApi('api');
    const options = parseLoadArgs();

    let next = 0;
    // Each request from a visitor of its own behind a proxy (the bench connects over loopback, a
    // trusted hop): one address would meet the per-address read limit within a second, while the
    // limit's own Redis round trip stays in the measurement.
    let visitors = 0;
    const visitor = () => {
      visitors += 1;
      return { 'x-forwarded-for': `198.18.${(visitors >> 8) & 255}.${visitors & 255}` };
    };
    const detail = (): LoadRequest => ({
      method: 'GET',
      path: `/api/public/properties/${propertyIds[(next += 1) % LISTINGS]}`,
      headers: visitor(),
    });
    const search = (): LoadRequest => ({ method: 'GET', path: '/api/public/search?q=lisbon', headers: visitor() });
    const figures = [];
    for (const [what, request] of [
      ['property detail', detail],
      ['search', search],
    ] as const) {
      console.log(`\n${what}: warmup ${options.warmupSeconds}s each, then ${options.rounds} rounds of ${options.seconds}s each at concurrency ${options.concurrency}`);
      const servers = [
        { ...bare, name: `bare ${what}` },
        { ...api, name: `api ${what}` },
      ];
      const [bareResult, apiResult] = (await loadInTurns(servers, { ...options, next: request })).map(summarize);
      printResults([
        { name: servers[0]!.name, result: bareResult! },
        { name: servers[1]!.name, result: apiResult! },
      ]);
      figures.push({ name: `public ${what} req/s vs bare handler`, value: apiResult!.rps / bareResult!.rps, target: 0.6, better: 'higher' as const });
    }
    for (const figure of figures) printFigure(figure);
  } finally {
    // The documents' keys have no suffix; the index (with it) goes with the stack.
    if (propertyIds.length > 0) await redis.del(...propertyIds.map((id) => `psearch:property:${id}`));
    await stack.close();
  }
}

await main();

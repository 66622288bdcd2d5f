// Public read benchmark: anonymous property detail and search over HTTP, requests per second of
// one api process (apps/api/src/main.ts) against a bare Express handler doing the same raw query
// or the same search query (tools/bench/public-read-bare-server.ts), measured in the same run.
// Target: the api at >= 0.6x the bare handler's req/s for each; a CDN in front,
// guided by the api's Cache-Control and ETag, carries the rest.
//
//   node_modules/.bin/tsx tools/bench/public-read-bench.ts [--seconds 4] [--rounds 3] [--concurrency 32]
//
// Data: the listings of public-listings.ts; detail requests cycle over them, search asks for a
// city word that half of them match.
import { freePort } from '@staging/stack/free-port';
import { openBenchStack, parseLoadArgs } from './bench-stack';
import { printFigure } from './figures';
import { loadInTurns, printResults, startProcess, summarize, waitForPort } from './http-load';
import type { LoadRequest, Server } from './http-load';
import { LISTINGS, SEARCH_WORD, seedPublicListings } from './public-listings';
import type { PublicListings } from './public-listings';
import { present } from './present';

async function main(): Promise<void> {
  const stack = await openBenchStack('public-read-bench');
  const { queueSuffix } = stack;
  let listings: PublicListings | undefined;
  try {
    listings = await seedPublicListings(stack);
    const { propertyIds } = listings;

    const barePort = await freePort();
    const bareChild = startProcess(stack.start, 'tools/bench/public-read-bare-server.ts', {
      PORT: String(barePort),
      DATABASE_URL: stack.databaseUrl,
      VALKEY_URL: stack.valkeyUrl,
      QUEUE_SUFFIX: queueSuffix,
    });
    await waitForPort(barePort, '/api/public/search');
    const bare: Server = { name: 'bare', port: barePort, pid: present(bareChild.process.pid, 'the bare server pid') };
    // The bench plays the proxy in front of the api: its X-Forwarded-For names each visitor.
    const api = await stack.startApi('api', { TRUSTED_PROXY_HOPS: '1' });
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
    const search = (): LoadRequest => ({ method: 'GET', path: `/api/public/search?q=${SEARCH_WORD}`, headers: visitor() });
    const figures = [];
    for (const [what, request] of [
      ['property detail', detail],
      ['search', search],
    ] as const) {
      console.log(`\n${what}: warmup ${options.warmupSeconds}s each, then ${options.rounds} rounds of ${options.seconds}s each at concurrency ${options.concurrency}`);
      const bareServer = { ...bare, name: `bare ${what}` };
      const apiServer = { ...api, name: `api ${what}` };
      const [bareSamples, apiSamples] = await loadInTurns([bareServer, apiServer], { ...options, next: request });
      const bareResult = summarize(present(bareSamples, 'bare samples'));
      const apiResult = summarize(present(apiSamples, 'api samples'));
      printResults([
        { name: bareServer.name, result: bareResult },
        { name: apiServer.name, result: apiResult },
      ]);
      figures.push({ name: `public ${what} req/s vs bare handler`, value: apiResult.rps / bareResult.rps, target: 0.6, better: 'higher' as const });
    }
    for (const figure of figures) printFigure(figure);
  } finally {
    // The documents' keys have no suffix; the index (with it) goes with the stack.
    await listings?.remove();
    await stack.close();
  }
}

await main();

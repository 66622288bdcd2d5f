// The public listing page (/listings/{id}) and search page (/search?q=…) as the web app serves
// them: a production build under `next start` (web-build.ts), requests per second and p99 of each
// against a static page of the same HTML size served by the same process in the same run (the
// bench build's prerendered route, apps/web/src/app/bench-static). Origin only (no CDN in front),
// warm (a warm-up period first), anonymous plain GETs without If-None-Match or Accept-Encoding, so
// each answer costs what producing it at the origin costs, whatever caching the pages allow.
// Target: each page at >= 0.5x the static page's req/s, with p99 <= 3x.
//
//   node_modules/.bin/tsx tools/bench/public-pages-bench.ts [--seconds 4] [--rounds 3] [--warmup 2] [--concurrency 32]
//
// Data: the listings of public-listings.ts; listing requests cycle over them, search asks for a
// city word that half of them match.
import http from 'node:http';
import { openBenchStack, parseLoadArgs } from './bench-stack';
import { printFigure } from './figures';
import { loadInTurns, printResults, summarize } from './http-load';
import type { LoadRequest, Server } from './http-load';
import { LISTINGS, SEARCH_WORD, seedPublicListings } from './public-listings';
import type { PublicListings } from './public-listings';
import { ensureBenchWebBuild, startWeb } from './web-build';
import { present } from './present';

/** One plain GET as the load sends it: its status, size and the headers that say how it may be cached. */
function probe(server: Server, requestPath: string): Promise<{ status: number; bytes: number; cacheControl: string; nextCache: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: server.port, path: requestPath }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            bytes,
            cacheControl: res.headers['cache-control'] ?? '-',
            nextCache: String(res.headers['x-nextjs-cache'] ?? '-'),
          }),
        );
      })
      .on('error', reject);
  });
}

async function main(): Promise<void> {
  const options = parseLoadArgs();
  await ensureBenchWebBuild();
  const stack = await openBenchStack('public-pages-bench');
  let listings: PublicListings | undefined;
  try {
    listings = await seedPublicListings(stack);
    const { propertyIds } = listings;
    const web = await startWeb(stack, 'web');

    let next = 0;
    const pages = {
      listing: (): LoadRequest => ({ method: 'GET', path: `/listings/${propertyIds[(next += 1) % LISTINGS]}` }),
      search: (): LoadRequest => ({ method: 'GET', path: `/search?q=${SEARCH_WORD}` }),
    };
    const figures = [];
    for (const [what, page] of Object.entries(pages)) {
      // The static page is as large as the page it stands beside, averaged over the pages the load asks for.
      const probes = await Promise.all(Array.from({ length: LISTINGS }, () => probe(web, page().path)));
      const failed = probes.find((answer) => answer.status !== 200);
      if (failed !== undefined) throw new Error(`the ${what} page answered ${failed.status}`);
      const bytes = Math.round(probes.reduce((sum, answer) => sum + answer.bytes, 0) / probes.length);
      const staticPath = `/bench-static/${bytes}`;
      // The first request renders the static page into Next's cache; from the second on it is served from there.
      await probe(web, staticPath);
      const staticProbe = await probe(web, staticPath);
      if (staticProbe.status !== 200 || staticProbe.bytes !== bytes) throw new Error(`the static page answered ${staticProbe.status} with ${staticProbe.bytes} bytes`);
      console.log(`\n${what} page: ${bytes} bytes, cache-control "${present(probes[0], 'a probe').cacheControl}"`);
      console.log(`static page: ${staticProbe.bytes} bytes, cache-control "${staticProbe.cacheControl}", x-nextjs-cache ${staticProbe.nextCache}`);
      console.log(`warmup ${options.warmupSeconds}s each, then ${options.rounds} rounds of ${options.seconds}s each at concurrency ${options.concurrency}`);

      const staticServer = { ...web, name: `static page (${what} size)` };
      const pageServer = { ...web, name: `${what} page` };
      const requests = new Map<string, () => LoadRequest>([
        [staticServer.name, () => ({ method: 'GET', path: staticPath })],
        [pageServer.name, page],
      ]);
      const [staticSamples, pageSamples] = await loadInTurns([staticServer, pageServer], {
        ...options,
        next: (server) => present(requests.get(server.name), `requests for ${server.name}`)(),
      });
      const staticResult = summarize(present(staticSamples, 'static page samples'));
      const pageResult = summarize(present(pageSamples, `${what} page samples`));
      printResults([
        { name: staticServer.name, result: staticResult },
        { name: pageServer.name, result: pageResult },
      ]);
      // A page answering errors (a 429, a 500) is cheap and would flatter the figure.
      if (staticResult.non2xx + pageResult.non2xx > 0) throw new Error(`the ${what} page or its static page answered errors under load`);
      figures.push(
        { name: `${what} page req/s vs static page of its size`, value: pageResult.rps / staticResult.rps, target: 0.5, better: 'higher' as const },
        { name: `${what} page p99 vs static page of its size`, value: pageResult.p99 / staticResult.p99, target: 3, better: 'lower' as const },
      );
    }
    for (const figure of figures) printFigure(figure);
  } finally {
    await listings?.remove();
    await stack.close();
  }
}

await main();

// The peak RSS (VmHWM) of the worker the image runs (the bundled
// dist/main.js, staging-stack.ts) while it stages four ~19.5 MiB outputs at once
// (AI_STAGING_CONCURRENCY 4), beside its idle RSS after boot in the same run. The outputs come
// from a file server here, as a provider's CDN would serve them.
//   node --import tsx tools/bench/worker-memory-bench.ts
import { createServer } from 'node:http';
import { listeningPort } from '@staging/platform/http-client-errors';
import { printFigure } from './figures';
import { noiseImage, openStagingBenchStack, statusKb } from './staging-stack';

const OUTPUTS = 4;
// 3420×2280 is 3:2 and its noise PNG is about 19.6 MiB, just under the 20 MiB ceiling.
const big = await noiseImage(3420, 2280, 'png');
const files = createServer((req, res) => {
  if (!(req.url ?? '').startsWith('/files/')) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'image/png', 'content-length': big.length }).end(big);
});
await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
const stack = await openStagingBenchStack({
  simulator: { SIM_COMPLETION_DELAY_MS: '1500', SIM_OUTPUT_BASE_URL: `http://127.0.0.1:${listeningPort(files)}` },
});
try {
  const worker = await stack.startWorker({ AI_STAGING_CONCURRENCY: String(OUTPUTS) });
  const idleMb = statusKb(worker.pid, 'VmRSS') / 1024;
  const ids = await stack.seedJobs(OUTPUTS, await noiseImage(600, 400, 'jpeg'), { aspectRatio: '3:2', outputFormat: 'png' });
  await stack.enqueue(ids);
  const ends = await Promise.all(
    ids.map((id) => worker.waitForLine((line) => line['jobId'] === id && (line['event'] === 'completed' || line['event'] === 'terminal_error'))),
  );
  const peakMb = statusKb(worker.pid, 'VmHWM') / 1024;
  await worker.stop();
  const failed = ends.filter((line) => line['event'] !== 'completed');
  if (failed.length > 0) throw new Error(`outputs not staged: ${JSON.stringify(failed)}`);
  console.log(`${OUTPUTS} outputs of ${(big.length / 2 ** 20).toFixed(1)} MiB at once: worker RSS ${idleMb.toFixed(0)} MB idle after boot, peak ${peakMb.toFixed(0)} MB`);
  printFigure({ name: `worker peak RSS MB, ${OUTPUTS} concurrent 20 MiB outputs`, value: peakMb, target: 400, better: 'lower' });
} finally {
  await stack.close();
  files.close();
}
process.exit(0);

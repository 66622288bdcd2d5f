// Closed-loop HTTP load and the helpers the HTTP benchmarks share: free ports, measured child
// processes (with their CPU time from /proc) and pooled latency summaries.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildApp, ChildAppLauncher } from '@staging/stack/child-app';
import { present } from './present';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Runs `script` under node with tsx as loader. BENCH_NODE_ARGS (e.g. `--cpu-prof
 * --cpu-prof-dir=/tmp/prof`) go to the measured processes only, for profiling a run.
 */
export function startProcess(start: ChildAppLauncher, script: string, env: Record<string, string | undefined>): ChildApp {
  const extra = process.env.BENCH_NODE_ARGS?.split(' ').filter((arg) => arg !== '') ?? [];
  return start({ name: path.basename(script), args: [...extra, '--import', 'tsx', script], env: { ...process.env, ...env } });
}

/** Polls until the server answers below 500; a busy machine can take a minute to boot the api under tsx. */
export async function waitForPort(port: number, probePath: string, method = 'GET'): Promise<void> {
  for (let i = 0; i < 600; i += 1) {
    const ok = await new Promise<boolean>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, path: probePath, method }, (res) => {
        res.resume();
        resolve(res.statusCode !== undefined && res.statusCode < 500);
      });
      req.on('error', () => resolve(false));
      req.end();
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing answered on port ${port}`);
}

/** User + system CPU seconds of process `pid` so far, from /proc (clock ticks are 1/100 s on Linux). */
function cpuSecondsOf(pid: number): number {
  try {
    const fields = present(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1], `/proc/${pid}/stat fields`).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** A server under test: where it listens and which process to charge its CPU to. */
export interface Server {
  name: string;
  port: number;
  pid: number;
}

/** One request as the load sends it. */
export interface LoadRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** What one server answered during one load period. */
export interface Sample {
  latencies: number[];
  seconds: number;
  non2xx: number;
  /** CPU seconds the server process used meanwhile (NaN where /proc is missing). */
  cpuSeconds: number;
}

/**
 * What to send next to `server`; servers that share a process (one port, two pages) tell their
 * requests apart by their names.
 */
export type RequestFor = (server: Server) => LoadRequest;

/** Closed-loop load: `concurrency` keep-alive connections, each sending its next request on reply. */
export async function load(server: Server, options: { seconds: number; concurrency: number; next: RequestFor }): Promise<Sample> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const latencies: number[] = [];
  let non2xx = 0;
  const deadline = performance.now() + options.seconds * 1000;

  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const { method, path: requestPath, headers = {}, body } = options.next(server);
      const started = performance.now();
      const req = http.request({ host: '127.0.0.1', port: server.port, method, path: requestPath, agent, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - started);
          if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300) non2xx += 1;
          resolve();
        });
      });
      req.on('error', reject);
      req.end(body);
    });

  const started = performance.now();
  const cpuBefore = cpuSecondsOf(server.pid);
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (performance.now() < deadline) await one();
    }),
  );
  agent.destroy();
  return { latencies, seconds: (performance.now() - started) / 1000, non2xx, cpuSeconds: cpuSecondsOf(server.pid) - cpuBefore };
}

/** Warms every server up, then lets them take turns for `rounds` rounds; returns each one's samples. */
export async function loadInTurns(
  servers: Server[],
  options: { rounds: number; seconds: number; warmupSeconds: number; concurrency: number; next: RequestFor },
): Promise<Sample[][]> {
  for (const server of servers) await load(server, { ...options, seconds: options.warmupSeconds });
  const samples = servers.map((): Sample[] => []);
  for (let round = 0; round < options.rounds; round += 1) {
    for (const [i, server] of servers.entries()) present(samples[i], `${server.name} samples`).push(await load(server, options));
  }
  return samples;
}

export interface Result {
  requests: number;
  rps: number;
  cpuMsPerRequest: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
}

/** The p-th percentile (0–100) of values sorted ascending, nearest rank. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return present(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))], `p${p}`);
}

export function summarize(samples: Sample[]): Result {
  const latencies = samples.flatMap((sample) => sample.latencies).sort((a, b) => a - b);
  const seconds = samples.reduce((sum, sample) => sum + sample.seconds, 0);
  return {
    requests: latencies.length,
    rps: latencies.length / seconds,
    cpuMsPerRequest: (samples.reduce((sum, sample) => sum + sample.cpuSeconds, 0) * 1000) / latencies.length,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? Number.NaN,
    non2xx: samples.reduce((sum, sample) => sum + sample.non2xx, 0),
  };
}

/** Prints one table row per server. */
export function printResults(rows: { name: string; result: Result }[]): void {
  const f = (n: number) => n.toFixed(2).padStart(8);
  const head = ['requests', 'req/s', 'CPU ms/r', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms'].map((h) => h.padStart(8)).join(' ');
  console.log(`${'target'.padEnd(24)} ${head} ${'non2xx'.padStart(6)}`);
  for (const { name, result: r } of rows) {
    console.log(
      `${name.padEnd(24)} ${String(r.requests).padStart(8)} ${r.rps.toFixed(0).padStart(8)} ${f(r.cpuMsPerRequest)} ${f(r.p50)} ${f(r.p90)} ${f(r.p99)} ${f(r.max)} ${String(r.non2xx).padStart(6)}`,
    );
  }
}

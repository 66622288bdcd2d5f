// The web app as production serves it, for the page benchmarks: a `next build` of apps/web made
// with the BENCH_STATIC_PAGE flag (the static baseline route, next.config.ts), reused while the
// sources it was built from are unchanged, and `next start` on a free port against a bench stack.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { webTestEnv } from '@staging/config/test-env';
import { freePort } from '@staging/stack/free-port';
import type { BenchStack } from './bench-stack';
import { root, waitForPort } from './http-load';
import type { Server } from './http-load';
import { present } from './present';

const webDir = path.join(root, 'apps/web');
/** Next's own CLI script, run by node directly so the server's pid is the process started here. */
const nextCli = path.join(webDir, 'node_modules/next/dist/bin/next');
/** Written next to the build; `next build` empties .next, so any other build loses it. */
const markerFile = path.join(webDir, '.next/bench-build.json');
/** What a web build is made of: the app, the workspace packages it bundles, and their dependencies. */
const SOURCES = ['apps/web', 'packages', 'tooling', 'pnpm-lock.yaml'];

function git(args: string[]): Buffer {
  return execFileSync('git', args, { cwd: root, maxBuffer: 256 * 1024 * 1024 });
}

/**
 * The committed trees of {@link SOURCES} plus every uncommitted change (tracked or not) under
 * them: equal fingerprints mean the same sources, whatever else a commit changed. Undefined
 * outside a git checkout, where every run builds.
 */
function sourceFingerprint(): string | undefined {
  try {
    const trees = git(['rev-parse', ...SOURCES.map((source) => `HEAD:${source}`)]);
    const hash = createHash('sha256').update(trees).update(git(['diff', 'HEAD', '--binary', '--', ...SOURCES]));
    const untracked = git(['ls-files', '--others', '--exclude-standard', '-z', '--', ...SOURCES]).toString('utf8').split('\0').filter(Boolean);
    for (const file of untracked) hash.update(file).update(readFileSync(path.join(root, file)));
    return hash.digest('hex');
  } catch {
    return undefined;
  }
}

function builtFingerprint(): string | undefined {
  if (!existsSync(markerFile)) return undefined;
  return (JSON.parse(readFileSync(markerFile, 'utf8')) as { fingerprint?: string }).fingerprint;
}

/**
 * Builds apps/web with the bench flag unless .next already holds such a build of these sources
 * (`pnpm bench` runs each benchmark several times; one build serves them all). The build's output
 * is shown only when it fails.
 */
export async function ensureBenchWebBuild(): Promise<void> {
  const fingerprint = sourceFingerprint();
  if (fingerprint !== undefined && builtFingerprint() === fingerprint) {
    console.log('web: reusing the bench build in apps/web/.next (same sources)');
    return;
  }
  const started = performance.now();
  const child = spawn(process.execPath, [nextCli, 'build'], {
    cwd: webDir,
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', BENCH_STATIC_PAGE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) {
    process.stderr.write(Buffer.concat(output));
    throw new Error(`next build exited with ${code}`);
  }
  if (fingerprint !== undefined) writeFileSync(markerFile, JSON.stringify({ fingerprint }));
  console.log(`web: next build with the bench flag in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** `next start` of the build on a free port, on the stack's database and queue store, as production runs it. */
export async function startWeb(stack: BenchStack, name: string): Promise<Server> {
  const port = await freePort();
  // BENCH_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) as for the other measured servers.
  const extra = process.env.BENCH_NODE_ARGS?.split(' ').filter((arg) => arg !== '') ?? [];
  const child = stack.start({
    name,
    args: [...extra, nextCli, 'start', '--port', String(port), '--hostname', '127.0.0.1'],
    cwd: webDir,
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      ...webTestEnv({
        NODE_ENV: 'production',
        DATABASE_URL: stack.databaseUrl,
        VALKEY_URL: stack.valkeyUrl,
        QUEUE_SUFFIX: stack.queueSuffix,
        PORT: String(port),
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
        // A production web sits behind a TLS proxy it trusts; the bench plays it, sending no header.
        TRUSTED_PROXY_HOPS: '1',
      }),
    },
  });
  await waitForPort(port, '/healthz');
  return { name, port, pid: present(child.process.pid, `${name} pid`) };
}

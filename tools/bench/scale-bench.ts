// Scale benchmark: seeds a customer at three sizes (S, M = 10×S, L = 100×S;
// packages/db/src/testing/scale-seed.ts), each in a database of its own, and measures every read an agent or visitor
// makes, through the tRPC procedures (session, zod, use case, output check), one call at a time.
// Every size is seeded first; then each read is timed at every size in turn, call by call, so a
// machine whose load drifts during the run weighs on every size alike. Prints p50, p95 and answer
// size per read and size, then each read's p95 L/S as a figure.
// Targets: p95 L/S ≤ 3 for every read, ≤ 1.5 for a page of a paginated list; the largest answer
// at L at most 1 MB. Prints numbers only; no assertions.
//
//   node_modules/.bin/tsx tools/bench/scale-bench.ts [--iterations 200] [--sizes S,M,L] [--keep]
//                                                    [--explain FILE]
//
// --keep leaves the L database in place and prints its URL, to read plans with EXPLAIN.
// --explain FILE writes, for the largest size measured, the plan of every statement each read
// sends, as Postgres ran it (auto_explain with ANALYZE and BUFFERS, loaded into that session
// only and sent back to the client as notices), so the plans are those of the code, not of a
// copy of its SQL.
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createDb, sqlPoolOf } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { createTestDatabase } from '@staging/db/testing';
import { SCALE_SIZES, scaleShapeOf, seedScale } from '@staging/db/testing/scale-seed';
import type { ScaleSeed, ScaleSize } from '@staging/db/testing/scale-seed';
import type { RequestLimitOverrides } from '@staging/http-edge/request-limits';
import { createRedis } from '@staging/platform/queues';
import { createCaller } from '@staging/trpc/root';
import type { TrpcDeps } from '@staging/trpc/context';
import { printFigure } from './figures';
import { benchTrpcDeps } from './trpc-deps';
import { present } from './present';

const { values: args } = parseArgs({
  options: {
    iterations: { type: 'string', default: '200' },
    sizes: { type: 'string', default: 'S,M,L' },
    keep: { type: 'boolean', default: false },
    explain: { type: 'string' },
    /** Only the reads whose name contains this text (e.g. `public.search`). */
    reads: { type: 'string', default: '' },
  },
});
// 200 calls per read and size: of 30, the p95 was the second-slowest call, so a single pause of a
// busy machine (a GC, a context switch) decided a millisecond read's ratio.
const ITERATIONS = Number(args.iterations);
const WARMUP = 20;
const sizes = SCALE_SIZES.filter((size) => args.sizes.split(',').includes(size.name));
const MAX_ANSWER_BYTES = 1024 * 1024;

type Caller = ReturnType<typeof createCaller>;
/** The agency agent, an admin (support access to every property) and an anonymous visitor. */
type Callers = Record<'agent' | 'admin' | 'visitor', Caller>;

interface Read {
  name: string;
  /** A page of a list: its cost must not depend on how long the list is. */
  paginated: boolean;
  /** Untimed preparation (e.g. walking to a deep page's cursor); returns the timed call. */
  prepare: (callers: Callers, seed: ScaleSeed) => Promise<() => Promise<unknown>>;
}

/** Walks `pages - 1` pages untimed and returns the cursor of page `pages`. */
async function cursorOfPage(pages: number, next: (cursor: string | undefined) => Promise<{ nextCursor: string | null }>): Promise<string | undefined> {
  let cursor: string | undefined;
  for (let page = 1; page < pages; page += 1) {
    const nextCursor = (await next(cursor)).nextCursor;
    if (nextCursor === null) throw new Error(`the list ends before page ${pages}`);
    cursor = nextCursor;
  }
  return cursor;
}

const currentMonth = () => new Date().toISOString().slice(0, 7);

const ALL_READS: Read[] = [
  { name: 'property.list page 1 (agency agent)', paginated: true, prepare: async ({ agent }) => () => agent.property.list({ limit: 20 }) },
  {
    name: 'property.list page 5',
    paginated: true,
    prepare: async ({ agent }) => {
      const cursor = await cursorOfPage(5, (c) => agent.property.list({ limit: 20, cursor: c }));
      return () => agent.property.list({ limit: 20, cursor });
    },
  },
  { name: 'ai.jobHistory page 1 (every property)', paginated: true, prepare: async ({ agent }) => () => agent.ai.jobHistory({ limit: 20 }) },
  {
    name: 'ai.jobHistory page 50',
    paginated: true,
    prepare: async ({ agent }) => {
      const cursor = await cursorOfPage(50, (c) => agent.ai.jobHistory({ limit: 20, cursor: c }));
      return () => agent.ai.jobHistory({ limit: 20, cursor });
    },
  },
  { name: 'ai.jobHistory page 1 (admin)', paginated: true, prepare: async ({ admin }) => () => admin.ai.jobHistory({ limit: 20 }) },
  { name: 'ai.listJobs (one property)', paginated: true, prepare: async ({ agent }, seed) => () => agent.ai.listJobs({ propertyId: seed.propertyId, limit: 20 }) },
  { name: 'ai.spendSummary (6 months)', paginated: false, prepare: async ({ agent }) => () => agent.ai.spendSummary({ months: 6 }) },
  { name: 'ai.spendByProperty page 1', paginated: true, prepare: async ({ agent }) => () => agent.ai.spendByProperty({ month: currentMonth(), limit: 50 }) },
  { name: 'ai.reviewVariants waiting, page 1', paginated: true, prepare: async ({ agent }) => () => agent.ai.reviewVariants({ reviewStatus: 'PENDING_REVIEW', limit: 20 }) },
  { name: 'ai.reviewVariants published, page 1', paginated: true, prepare: async ({ agent }) => () => agent.ai.reviewVariants({ reviewStatus: 'APPROVED', limit: 20 }) },
  { name: 'ai.startLine (badge)', paginated: false, prepare: async ({ agent }) => () => agent.ai.startLine() },
  { name: 'inventory.getUnits (big property)', paginated: false, prepare: async ({ agent }, seed) => () => agent.inventory.getUnits({ propertyId: seed.propertyId }) },
  { name: 'inventory.listUnits (big property)', paginated: true, prepare: async ({ agent }, seed) => () => agent.inventory.listUnits({ propertyId: seed.propertyId }) },
  { name: 'inventory.listItems page 1 (one unit)', paginated: true, prepare: async ({ agent }, seed) => () => agent.inventory.listItems({ propertyUnitId: seed.unitId, limit: 100 }) },
  {
    name: 'inventory.listItems page 5',
    paginated: true,
    prepare: async ({ agent }, seed) => {
      const cursor = await cursorOfPage(5, (c) => agent.inventory.listItems({ propertyUnitId: seed.unitId, limit: 100, ...(c === undefined ? {} : { cursor: c }) }));
      return () => agent.inventory.listItems({ propertyUnitId: seed.unitId, limit: 100, cursor });
    },
  },
  { name: 'public.getProperty', paginated: false, prepare: async ({ visitor }, seed) => () => visitor.public.getProperty({ propertyId: seed.propertyId }) },
  // The seed's titles and cities: "sunny" matches a fifth of the listings, "lisbon" a tenth.
  { name: 'public.search q=sunny', paginated: false, prepare: async ({ visitor }) => () => visitor.public.search({ q: 'sunny' }) },
  { name: 'public.search q=lisbon', paginated: false, prepare: async ({ visitor }) => () => visitor.public.search({ q: 'lisbon' }) },
  { name: 'public.search q=sunny city=Málaga', paginated: false, prepare: async ({ visitor }) => () => visitor.public.search({ q: 'sunny', city: 'Málaga' }) },
];
const READS = ALL_READS.filter((read) => read.name.includes(args.reads));

/** Every procedure the reads call, with room for a benchmark's many calls in one minute. */
const UNLIMITED: RequestLimitOverrides = Object.fromEntries(
  ['property.list', 'ai.jobHistory', 'ai.listJobs', 'ai.spendSummary', 'ai.spendByProperty', 'ai.reviewVariants', 'ai.startLine', 'inventory.getUnits', 'inventory.listUnits', 'inventory.listItems', 'public.getProperty', 'public.search'].map((path) => [path, 1_000_000]),
);

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return present(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)], `p${p}`);
}

/** The answer's size as JSON (what the HTTP transport sends), or of the error a bounded read answers. */
async function answerBytes(call: () => Promise<unknown>): Promise<{ bytes: number; error: string | null }> {
  try {
    return { bytes: Buffer.byteLength(JSON.stringify(await call())), error: null };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { bytes: Buffer.byteLength(JSON.stringify({ error: message })), error: message };
  }
}

interface Measured {
  p50: number;
  p95: number;
  bytes: number;
  error: string | null;
}

/**
 * Times one read at every size, the sizes taking turns call by call (each round starting at the
 * next size), so a machine whose load drifts during the run slows every size alike and the L/S
 * ratio stays a ratio of the read's own cost.
 */
async function measureAcrossSizes(calls: readonly (() => Promise<unknown>)[]): Promise<Measured[]> {
  const samples: number[][] = calls.map(() => []);
  for (let i = 0; i < WARMUP + ITERATIONS; i += 1) {
    for (let turn = 0; turn < calls.length; turn += 1) {
      const index = (i + turn) % calls.length;
      const started = performance.now();
      await present(calls[index], `read ${index}`)().catch(() => undefined);
      if (i >= WARMUP) present(samples[index], `samples of read ${index}`).push(performance.now() - started);
    }
  }
  return Promise.all(
    calls.map(async (call, index) => {
      const measured = present(samples[index], `samples of read ${index}`);
      return { p50: percentile(measured, 50), p95: percentile(measured, 95), ...(await answerBytes(call)) };
    }),
  );
}

function depsFor(db: Db, redis: ReturnType<typeof createRedis>): TrpcDeps {
  return benchTrpcDeps({ db, redis, service: 'scale-bench', requestLimitOverrides: UNLIMITED });
}

const AUTO_EXPLAIN = [
  'session_preload_libraries=auto_explain',
  'client_min_messages=log',
  'auto_explain.log_min_duration=0',
  'auto_explain.log_analyze=on',
  'auto_explain.log_buffers=on',
];

function callersOf(deps: TrpcDeps, seed: ScaleSeed): Callers {
  const session = (id: string, role: 'AGENT' | 'ADMIN') => ({ sessionId: 'scale-bench', user: { id, email: `${id}@scale.test`, name: id, role }, locale: null });
  return {
    agent: createCaller({ deps, headers: new Headers(), session: session(seed.agencyAgentId, 'AGENT'), clientAddress: '127.0.0.1' }),
    admin: createCaller({ deps, headers: new Headers(), session: session(seed.adminId ?? seed.agencyAgentId, 'ADMIN'), clientAddress: '127.0.0.1' }),
    visitor: createCaller({ deps, headers: new Headers(), session: null, clientAddress: '127.0.0.1' }),
  };
}

/** Markdown with the plan of every statement each read sends once, on its own connection. */
async function explainReads(databaseUrl: string, size: ScaleSize, seed: ScaleSeed, redis: ReturnType<typeof createRedis>): Promise<string> {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', AUTO_EXPLAIN.map((setting) => `-c ${setting}`).join(' '));
  const db = createDb(url.toString(), { maxConnections: 1 });
  let plans: string[] = [];
  sqlPoolOf(db).on('connect', (client) => client.on('notice', (notice) => plans.push(notice.message ?? '')));
  const callers = callersOf(depsFor(db, redis), seed);
  const sections: string[] = [];
  try {
    for (const read of READS) {
      const call = await read.prepare(callers, seed);
      plans = [];
      await call().catch(() => undefined);
      const statements = plans.filter((plan) => !/Query Text: (BEGIN|COMMIT|ROLLBACK|SELECT 1$)/m.test(plan));
      sections.push(`## ${read.name}\n\n${statements.map((plan) => `\`\`\`\n${plan.trim()}\n\`\`\``).join('\n\n')}`);
    }
  } finally {
    await db.$disconnect();
  }
  return `# Plans of every read at ${size.name}\n\nWritten by \`tools/bench/scale-bench.ts --explain\`: each statement as Postgres ran it at size ${size.name} (${scaleShapeOf(size).jobs.toLocaleString('en')} jobs), with ANALYZE and BUFFERS, warm after the timed runs.\n\n${sections.join('\n\n')}\n`;
}

/** A size seeded in a database of its own, with its callers. */
interface Seeded {
  size: ScaleSize;
  seed: ScaleSeed;
  callers: Callers;
  db: Db;
  database: Awaited<ReturnType<typeof createTestDatabase>>;
}

async function seedSize(size: ScaleSize, redis: ReturnType<typeof createRedis>): Promise<Seeded> {
  const database = await createTestDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const started = performance.now();
  const seed = await seedScale(client, size, { prefix: 's' }).finally(() => client.end());
  const seconds = (performance.now() - started) / 1000;
  const shape = scaleShapeOf(size);
  console.log(
    `${size.name}: ${shape.properties.toLocaleString('en')} properties (${shape.agencyProperties.toLocaleString('en')} of one agent), ` +
      `${shape.jobs.toLocaleString('en')} jobs, ${shape.inventoryItems.toLocaleString('en')} items in one property; seeded in ${seconds.toFixed(1)} s`,
  );
  const db = createDb(database.url);
  return { size, seed, db, database, callers: callersOf(depsFor(db, redis), seed) };
}

async function release({ size, db, database }: Seeded): Promise<void> {
  await db.$disconnect();
  if (args.keep && size.name === 'L') console.log(`kept: ${database.url}`);
  else await database.drop();
}

function printMeasured(name: string, result: Measured): void {
  const answer = result.error === null ? `${(result.bytes / 1024).toFixed(1)} KB` : `error (${result.bytes} B): ${result.error.slice(0, 60)}`;
  console.log(`  ${name.padEnd(40)} p50 ${result.p50.toFixed(2).padStart(8)} ms  p95 ${result.p95.toFixed(2).padStart(8)} ms  ${answer}`);
}

async function main(): Promise<void> {
  const redis = createRedis(process.env.VALKEY_URL ?? 'redis://127.0.0.1:6379', { connectionName: 'scale-bench', role: 'producer' });
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  const seeded: Seeded[] = [];
  try {
    for (const size of sizes) seeded.push(await seedSize(size, redis));
    const bySize = new Map<string, Map<string, Measured>>(seeded.map(({ size }) => [size.name, new Map()]));
    for (const read of READS) {
      const calls = await Promise.all(seeded.map(({ callers, seed }) => read.prepare(callers, seed)));
      const sizeOf = (index: number) => present(seeded[index], `size ${index}`).size.name;
      (await measureAcrossSizes(calls)).forEach((result, index) => present(bySize.get(sizeOf(index)), `size ${sizeOf(index)}`).set(read.name, result));
    }
    for (const { size } of seeded) {
      console.log(`
${size.name}`);
      for (const [name, result] of present(bySize.get(size.name), `size ${size.name}`)) printMeasured(name, result);
    }
    const largestSize = seeded[seeded.length - 1];
    if (args.explain !== undefined && largestSize !== undefined) {
      await writeFile(args.explain, await explainReads(largestSize.database.url, largestSize.size, largestSize.seed, redis));
      console.log(`plans written to ${args.explain}`);
    }
    const small = bySize.get('S');
    const large = bySize.get('L');
    if (small === undefined || large === undefined) return;
    console.log('\np95 L/S per read (target ≤ 1.5 for a page of a list, ≤ 3 otherwise)');
    for (const read of READS) {
      const ratio = present(large.get(read.name), `${read.name} at L`).p95 / present(small.get(read.name), `${read.name} at S`).p95;
      printFigure({ name: `${read.name} p95 L/S`, value: ratio, target: read.paginated ? 1.5 : 3, better: 'lower' });
    }
    const largest = Math.max(...[...large.values()].map((measured) => measured.bytes));
    printFigure({ name: 'largest answer at L vs 1 MB', value: largest / MAX_ANSWER_BYTES, target: 1, better: 'lower' });
  } finally {
    for (const size of seeded) await release(size);
    redis.disconnect();
  }
}

await main();

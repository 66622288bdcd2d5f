// One chaos run: start the isolated stack, replay the seeded schedule (submissions, cancels,
// provider faults, worker SIGKILLs, FLUSHALL, terminated Postgres backends, kill-switch flips),
// drain, then audit the money and storage invariants.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TEST_SECRETS } from '@staging/config/test-env';
import { createDb } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { DAILY_PURCHASE_CAP_REACHED } from '@staging/domain/daily-purchase-cap';
import { NONTERMINAL_JOB_STATUSES, jobStatusesAccepting } from '@staging/domain/staging-states';
import { createObjectStorage } from '@staging/platform/storage';
import { Redis } from 'ioredis';
import pg from 'pg';
import { signIn } from './agent-client';
import type { AgentClient } from './agent-client';
import { evaluateInvariants } from './audit-rules';
import type { InvariantResult } from './audit-rules';
import { collectFacts, readCreateCalls, readPurchases } from './collect-facts';
import { CHAOS_BUCKET, startChaosStack } from './isolated-stack';
import type { ChaosStack } from './isolated-stack';
import { createRandom } from './random';
import { buildSchedule } from './schedule';
import type { ChaosEvent } from './schedule';
import { seedListing } from './seed-listing';
import { createWorkerFleet } from './worker-fleet';
import type { WorkerFleet } from './worker-fleet';

export interface ChaosOptions {
  seed: number;
  kills: number;
  jobs: number;
  workers: number;
  rateLimitPerMinute: number;
  drainTimeoutMs: number;
  /** AI_DAILY_PURCHASE_CAP of the run; null leaves it unset. */
  dailyPurchaseCap: number | null;
}

export interface ChaosStats {
  kills: number;
  flushes: number;
  backendsTerminated: number;
  killSwitchOffMs: number[];
  faultsScripted: number;
  faultsSkipped: number;
  cancels: number;
  /** Jobs parked at the daily cap that the agent canceled during the drain. */
  capCancels: number;
  jobsSubmitted: number;
  /** ai.submitStaging calls, taken by the agents in turn. */
  submissions: number;
  unexpectedExits: number;
  eventErrors: number;
}

export interface ChaosReport {
  seed: number;
  results: InvariantResult[];
  ok: boolean;
  stats: ChaosStats;
  logDir: string;
}

/** The runner's own database connections, which terminating backends must spare. */
const RUNNER_APPLICATION_NAME = 'chaos-runner';
const BOOT_TIMEOUT_MS = 120_000;
const DRAIN_PROGRESS_MS = 5_000;
const PROGRESS_WAIT_MS = 30_000;

function withApplicationName(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('application_name', RUNNER_APPLICATION_NAME);
  return url.toString();
}

export function rerunCommand(options: Pick<ChaosOptions, 'kills' | 'seed' | 'dailyPurchaseCap'>): string {
  const cap = options.dailyPurchaseCap === null ? '' : ` --daily-cap ${options.dailyPurchaseCap}`;
  return `pnpm chaos --kills ${options.kills} --seed ${options.seed}${cap}`;
}

function emptyStats(): ChaosStats {
  return {
    kills: 0,
    flushes: 0,
    backendsTerminated: 0,
    killSwitchOffMs: [],
    faultsScripted: 0,
    faultsSkipped: 0,
    cancels: 0,
    capCancels: 0,
    jobsSubmitted: 0,
    submissions: 0,
    unexpectedExits: 0,
    eventErrors: 0,
  };
}

type Listing = Awaited<ReturnType<typeof seedListing>>;

/** A listing per agent, each with photos enough to take every submission. */
async function seedListings(stack: ChaosStack, db: Db, jobs: number): Promise<Listing[]> {
  const storage = createObjectStorage({
    endpoint: stack.s3Endpoint,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: TEST_SECRETS.S3_SECRET_ACCESS_KEY,
    bucket: CHAOS_BUCKET,
    forcePathStyle: true,
  });
  const listings = [];
  for (let i = 0; i < AGENTS; i += 1) listings.push(await seedListing(db, storage, jobs));
  storage.close();
  return listings;
}

/** Each listing's agent, signed in; they take turns submitting. */
async function signInAgents(stack: ChaosStack, listings: Listing[]): Promise<AgentSeat[]> {
  const agents: AgentSeat[] = [];
  for (const listing of listings) {
    agents.push({ client: await signIn(stack.apiUrl, { email: listing.email, password: listing.password }), originals: listing.originalImageIds, submitted: 0 });
  }
  return agents;
}

/** Applies each event at its time; a failed event is counted and logged, and the run goes on. */
async function replay(context: EventContext, schedule: ChaosEvent[]): Promise<void> {
  const runStart = Date.now();
  for (const event of schedule) {
    const due = runStart + event.atMs - Date.now();
    if (due > 0) await sleep(due);
    try {
      await applyEvent(context, event);
    } catch (error) {
      context.stats.eventErrors += 1;
      context.log(`${event.kind} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Drains the jobs, stops the workers and checks the invariants against what the run left behind. */
async function drainAndAudit(context: EventContext, options: ChaosOptions, logDir: string): Promise<InvariantResult[]> {
  const { stack, db, fleet, stats, jobIds, log } = context;
  stats.killSwitchOffMs = fleet.killSwitchOff().map((i) => i.toMs - i.fromMs);
  log(`schedule done; draining ${jobIds.length} jobs (kill switch on, no new faults, no kills; at most ${options.drainTimeoutMs / 1000} s)`);
  // Parked jobs would wait for the next UTC day; an agent cancels them instead (nothing was bought).
  const cancelParked = options.dailyPurchaseCap === null ? null : () => cancelJobsParkedAtCap(context);
  await drain(db, jobIds, options.drainTimeoutMs, log, cancelParked);
  stats.unexpectedExits = fleet.unexpectedExits();
  await fleet.stop();
  const facts = await collectFacts({
    db,
    purchases: await readPurchases(stack.simulatorOrigin),
    createCalls: await readCreateCalls(stack.simulatorOrigin),
    s3Endpoint: stack.s3Endpoint,
    bucket: CHAOS_BUCKET,
    killSwitchOff: fleet.killSwitchOff(),
    rateLimitPerMinute: options.rateLimitPerMinute,
    dailyPurchaseCap: options.dailyPurchaseCap,
    logDir,
  });
  return evaluateInvariants(facts);
}

export async function runChaos(options: ChaosOptions, say: (line: string) => void): Promise<ChaosReport> {
  const began = Date.now();
  const log = (line: string) => say(`[chaos +${((Date.now() - began) / 1000).toFixed(1).padStart(5)}s] ${line}`);
  say(`chaos seed ${options.seed}: ${options.kills} kills, ${options.jobs} jobs, ${options.workers} workers, paid-start limit ${options.rateLimitPerMinute}/min, daily cap ${options.dailyPurchaseCap ?? 'none'}`);
  const schedule = buildSchedule(options, createRandom(options.seed));
  const logDir = await mkdtemp(path.join(tmpdir(), `chaos-${options.seed}-`));
  log(`starting the isolated stack (logs in ${logDir})`);
  const stack = await startChaosStack({ logDir, log, rateLimitPerMinute: options.rateLimitPerMinute, dailyPurchaseCap: options.dailyPurchaseCap });
  const db = createDb(withApplicationName(stack.databaseUrl), { maxConnections: 4 });
  const redis = new Redis(stack.redisUrl, { maxRetriesPerRequest: 3 });
  redis.on('error', () => undefined);
  const fleet = createWorkerFleet(stack, options.workers, log);
  const stats = emptyStats();
  try {
    const listings = await seedListings(stack, db, options.jobs);
    await fleet.start(BOOT_TIMEOUT_MS);
    log(`${options.workers} workers ready`);
    const agents = await signInAgents(stack, listings);
    log(`signed in as ${AGENTS} agents; queue suffix ${stack.queueSuffix}; replaying ${schedule.length} scheduled events`);
    const context: EventContext = { stack, db, purchasesAtLastKill: 0, fleet, agents, owners: new Map(), redis, log, stats, jobIds: [] };
    await replay(context, schedule);
    const results = await drainAndAudit(context, options, logDir);
    return { seed: options.seed, results, ok: results.every((r) => r.ok), stats, logDir };
  } finally {
    await fleet.stop().catch(() => undefined);
    redis.disconnect();
    await db.$disconnect().catch(() => undefined);
    await stack.stop().catch((error: unknown) => log(`stopping the stack failed: ${String(error)}`));
  }
}

interface EventContext {
  stack: ChaosStack;
  db: Db;
  /** Purchases the simulator had seen when the previous kill was allowed. */
  purchasesAtLastKill: number;
  fleet: WorkerFleet;
  /** Submissions go to each agent in turn, so the paid-start line has several parties. */
  agents: AgentSeat[];
  /** The agent that submitted each job, who cancels it. */
  owners: Map<string, AgentClient>;
  redis: Redis;
  log: (line: string) => void;
  stats: ChaosStats;
  jobIds: string[];
}

interface AgentSeat {
  client: AgentClient;
  originals: string[];
  submitted: number;
}

/** Agents sharing the start limit. */
const AGENTS = 3;

function ownerOf(ctx: EventContext, jobId: string): AgentClient {
  const owner = ctx.owners.get(jobId);
  if (owner === undefined) throw new Error(`job ${jobId} was not submitted by this run`);
  return owner;
}

async function applyEvent(ctx: EventContext, event: ChaosEvent): Promise<void> {
  const { stats, log } = ctx;
  switch (event.kind) {
    case 'submit': {
      await ensureApi(ctx);
      const seat = ctx.agents[stats.submissions % ctx.agents.length];
      if (seat === undefined) throw new Error('no agent signed in');
      stats.submissions += 1;
      const batch = seat.originals.slice(seat.submitted, seat.submitted + event.count);
      seat.submitted += batch.length;
      stats.jobsSubmitted += batch.length;
      const items = await seat.client.submitStaging(batch.map((originalImageId) => ({ originalImageId, roomType: 'LIVING_ROOM', style: 'MODERN' })));
      const enqueued = items.flatMap((item) => (item.aiJobId === null ? [] : [item.aiJobId]));
      for (const jobId of enqueued) ctx.owners.set(jobId, seat.client);
      ctx.jobIds.push(...enqueued);
      log(`agent ${ctx.agents.indexOf(seat) + 1} submitted ${enqueued.length} job(s) through ai.submitStaging (${ctx.jobIds.length} so far)`);
      return;
    }
    case 'cancel': {
      const jobId = ctx.jobIds[event.jobIndex];
      if (jobId === undefined) return;
      await ensureApi(ctx);
      await ownerOf(ctx, jobId).cancelStaging(jobId);
      stats.cancels += 1;
      log(`canceled job ${jobId} through ai.cancelStaging`);
      return;
    }
    case 'fault': {
      // At most one fault waits at a time, so none is left over for the drain.
      const queued = (await (await fetch(`${ctx.stack.simulatorOrigin}/__sim/faults`)).json()) as { queued: unknown[] };
      if (queued.queued.length > 0) {
        stats.faultsSkipped += 1;
        return;
      }
      const response = await fetch(`${ctx.stack.simulatorOrigin}/__sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([event.fault]),
      });
      if (!response.ok) throw new Error(`POST /__sim/faults answered ${response.status}`);
      stats.faultsScripted += 1;
      log(`scripted provider fault ${event.fault.name} for the next create`);
      return;
    }
    case 'kill': {
      await awaitProgress(ctx);
      const killed = await ctx.fleet.kill({ preferred: event.worker, uptimeMs: event.uptimeMs, restartAfterMs: event.restartAfterMs });
      stats.kills += 1;
      log(`kill ${stats.kills}: SIGKILL worker-${killed.slot} (pid ${killed.pid}, ${event.uptimeMs} ms after ready, waited ${(killed.waitedMs / 1000).toFixed(1)} s), restarted after ${event.restartAfterMs} ms`);
      return;
    }
    case 'flushall': {
      await ctx.redis.flushall();
      stats.flushes += 1;
      log('FLUSHALL on the run\'s Redis');
      return;
    }
    case 'terminate-backends': {
      const terminated = await terminateBackends(ctx.stack.databaseUrl);
      stats.backendsTerminated += terminated;
      log(`terminated ${terminated} Postgres backend(s) of the run's database`);
      return;
    }
    case 'kill-switch-off': {
      log('kill switch: restarting every worker with AI_ROOM_STAGING_ENABLED=false');
      await ctx.fleet.switchOff();
      await sleep(event.durationMs);
      await ctx.fleet.switchOn();
      const last = ctx.fleet.killSwitchOff().at(-1);
      log(`kill switch: workers enabled again (off for ${last === undefined ? '?' : ((last.toMs - last.fromMs) / 1000).toFixed(1)} s)`);
      return;
    }
  }
}

/**
 * Holds a kill until the provider saw a new purchase since the previous kill (or no job is open,
 * or PROGRESS_WAIT_MS passed), so kills land between real work even where workers boot slowly.
 */
async function awaitProgress(ctx: EventContext): Promise<void> {
  const deadline = Date.now() + PROGRESS_WAIT_MS;
  for (;;) {
    const purchases = (await readPurchases(ctx.stack.simulatorOrigin)).length;
    if (purchases > ctx.purchasesAtLastKill) {
      ctx.purchasesAtLastKill = purchases;
      return;
    }
    const open = await openJobs(ctx.db, ctx.jobIds);
    if (open === 0 || Date.now() > deadline) return;
    await sleep(250);
  }
}

async function ensureApi(ctx: EventContext): Promise<void> {
  if (ctx.stack.api().isRunning()) return;
  ctx.stats.unexpectedExits += 1;
  ctx.log('the api exited on its own; restarting it');
  await ctx.stack.restartApi();
}

async function terminateBackends(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: withApplicationName(databaseUrl) });
  await client.connect();
  try {
    // Two statements on purpose: Postgres does not promise to evaluate WHERE conditions in order,
    // so pg_terminate_backend(pid) beside the filters may run for every backend of the server
    // (every other test run and a developer's stack). Only pids read from this database are killed.
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name <> $1`,
      [RUNNER_APPLICATION_NAME],
    );
    if (rows.length === 0) return 0;
    const killed = await client.query<{ terminated: boolean }>(
      'SELECT pg_terminate_backend(pid) AS terminated FROM unnest($1::int[]) AS own(pid)',
      [rows.map((row) => row.pid)],
    );
    return killed.rows.filter((row) => row.terminated).length;
  } finally {
    await client.end();
  }
}

function openJobs(db: Db, jobIds: string[]): Promise<number> {
  return db.aiJob.count({ where: { id: { in: jobIds }, status: { in: [...NONTERMINAL_JOB_STATUSES] } } });
}

// A job waits at the cap in the statuses that can wait without buying (those the kill switch parks).
const PARKABLE_STATUSES = jobStatusesAccepting('PROVIDER_DISABLED');

async function cancelJobsParkedAtCap(ctx: EventContext): Promise<void> {
  const parked = await ctx.db.aiJob.findMany({
    where: { id: { in: ctx.jobIds }, phase: DAILY_PURCHASE_CAP_REACHED, status: { in: PARKABLE_STATUSES } },
    select: { id: true },
  });
  if (parked.length === 0) return;
  await ensureApi(ctx);
  for (const job of parked) await ownerOf(ctx, job.id).cancelStaging(job.id);
  ctx.stats.capCancels += parked.length;
  ctx.log(`canceled ${parked.length} job(s) parked at the daily cap through ai.cancelStaging`);
}

async function drain(db: Db, jobIds: string[], timeoutMs: number, log: (line: string) => void, cancelParked: (() => Promise<void>) | null): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastProgress = 0;
  for (;;) {
    await cancelParked?.();
    const open = await openJobs(db, jobIds);
    if (open === 0) {
      log(`drained: all ${jobIds.length} jobs terminal`);
      return;
    }
    if (Date.now() > deadline) {
      log(`drain bound reached with ${open} job(s) still open`);
      return;
    }
    if (Date.now() - lastProgress >= DRAIN_PROGRESS_MS) {
      lastProgress = Date.now();
      log(`draining: ${open} of ${jobIds.length} jobs still open`);
    }
    await sleep(500);
  }
}

// Reads what the audit judges, after the drain: every prediction the simulator created (its
// control API, which keeps the callback URL even where the public API does not echo it, and its
// status at the audit), the
// ledger rows of the run's database and the keys stored in its bucket.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { storedKeys } from '@staging/stack/s3-server';
import { parsedFields } from '@staging/stack/json-fields';
import type { Db } from '@staging/db/client';
import { fairShareParty, LINE_REJOIN_EVENTS } from '@staging/domain/start-line';
import { attemptIdOfCallback } from './audit-rules';
import type { AttemptFact, AuditFacts, CreateCall, Interval, JobFact, Purchase } from './audit-rules';

interface SimPrediction {
  id: string;
  status: string;
  created_at: string;
  webhook?: string | null;
}

export async function readPurchases(simulatorOrigin: string): Promise<Purchase[]> {
  const response = await fetch(`${simulatorOrigin}/__sim/predictions`);
  if (!response.ok) throw new Error(`GET /__sim/predictions answered ${response.status}`);
  const { predictions } = (await response.json()) as { predictions: SimPrediction[] };
  return predictions.map((p) => ({
    predictionId: p.id,
    createdAtMs: Date.parse(p.created_at),
    attemptId: attemptIdOfCallback(p.webhook),
    status: p.status,
  }));
}

/** Every create call the simulator received, from its control API. */
export async function readCreateCalls(simulatorOrigin: string): Promise<CreateCall[]> {
  const response = await fetch(`${simulatorOrigin}/__sim/create-calls`);
  if (!response.ok) throw new Error(`GET /__sim/create-calls answered ${response.status}`);
  const { createCalls } = (await response.json()) as { createCalls: { at: string; webhook: string | null }[] };
  return createCalls.map((call) => ({ atMs: Date.parse(call.at), attemptId: attemptIdOfCallback(call.webhook) }));
}

const REJOIN_EVENTS: ReadonlySet<unknown> = new Set(Object.values(LINE_REJOIN_EVENTS));

/**
 * When each job joined the start line anew, from the JSON lines of the workers' logs: the
 * LINE_REJOIN_EVENTS, and a pickup on a redelivered message.
 */
export async function readLineRejoins(logDir: string): Promise<Map<string, number[]>> {
  const rejoins = new Map<string, number[]>();
  const files = (await readdir(logDir)).filter((name) => name.startsWith('worker-') && name.endsWith('.log'));
  for (const file of files) {
    for (const line of (await readFile(path.join(logDir, file), 'utf8')).split('\n')) {
      if (!line.includes('"event"')) continue;
      const { event, jobId, time, queueAttempt } = parsedFields(line);
      // A pickup on a second delivery: the first went with a worker killed before it took the job
      // up, and the job was not asking for a slot until its message was delivered again.
      const redelivered = event === 'worker_started' && typeof queueAttempt === 'number' && queueAttempt > 1;
      if (!(REJOIN_EVENTS.has(event) || redelivered) || typeof jobId !== 'string' || typeof time !== 'string') continue;
      rejoins.set(jobId, [...(rejoins.get(jobId) ?? []), Date.parse(time)]);
    }
  }
  return rejoins;
}

export async function collectFacts(options: {
  db: Db;
  purchases: Purchase[];
  createCalls: CreateCall[];
  s3Endpoint: string;
  bucket: string;
  killSwitchOff: Interval[];
  rateLimitPerMinute: number;
  dailyPurchaseCap: number | null;
  logDir: string;
}): Promise<AuditFacts> {
  const { db } = options;
  const [attempts, jobs, images, outbox, keys, rejoins] = await Promise.all([
    db.aiProviderAttempt.findMany({
      select: { id: true, aiJobId: true, attemptNumber: true, status: true, errorCode: true, providerPredictionId: true, outputObjectKey: true },
    }),
    db.aiJob.findMany({ where: { type: 'ROOM_STAGING' }, select: { id: true, status: true, requestedByUserId: true, createdAt: true } }),
    db.propertyImage.findMany({ select: { objectKey: true } }),
    // A row still to be processed, or given up on, holds its object as "queued for deletion".
    db.storageDeletionOutbox.findMany({ where: { status: { not: 'DELETED' } }, select: { objectKey: true } }),
    storedKeys(options.s3Endpoint, options.bucket),
    readLineRejoins(options.logDir),
  ]);
  return {
    purchases: options.purchases,
    createCalls: options.createCalls,
    attempts: attempts.map(({ outputObjectKey: _key, ...fact }): AttemptFact => fact),
    jobs: jobs.map(
      (job): JobFact => ({
        id: job.id,
        status: job.status,
        party: fairShareParty(job.requestedByUserId),
        createdAtMs: job.createdAt.getTime(),
        rejoinedAtMs: rejoins.get(job.id) ?? [],
      }),
    ),
    storedKeys: keys,
    referencedKeys: new Set([
      ...images.map((image) => image.objectKey),
      ...attempts.map((a) => a.outputObjectKey).filter((key): key is string => key !== null),
    ]),
    queuedKeys: new Set(outbox.map((row) => row.objectKey)),
    killSwitchOff: options.killSwitchOff,
    rateLimitPerMinute: options.rateLimitPerMinute,
    dailyPurchaseCap: options.dailyPurchaseCap,
  };
}

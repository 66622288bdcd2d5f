// The money and cleanliness invariants of a chaos run as pure functions over facts collected
// after the drain (simulator predictions, ledger rows, stored object keys), so each rule is unit
// tested on its own and the run only gathers facts.
import { isRetryableStagingError } from '@staging/domain/staging-errors';
import { isTerminalJobStatus } from '@staging/domain/staging-states';
import type { JobStatus } from '@staging/domain/staging-states';
import { slidingWindowPeak } from '@staging/domain/sliding-window';
import { purchaseDayOf } from '@staging/domain/daily-purchase-cap';
import { startIntervalMs } from '@staging/domain/start-line';

/** One prediction the provider created, i.e. one purchase. */
export interface Purchase {
  predictionId: string;
  createdAtMs: number;
  /** Last path segment of the callback URL the worker sent (its attempt id), when it sent one. */
  attemptId: string | null;
  /** The provider's status at the audit (starting and processing: still running, still billed). */
  status: string;
}

/** One create call the provider received, bought or not: one start slot spent. */
export interface CreateCall {
  atMs: number;
  /** The attempt its callback URL names, when it names one. */
  attemptId: string | null;
}

export interface AttemptFact {
  id: string;
  aiJobId: string;
  attemptNumber: number;
  status: string;
  errorCode: string | null;
  providerPredictionId: string | null;
}

export interface JobFact {
  id: string;
  status: JobStatus;
  /** Whose share of the start limit the job's starts count against (fairShareParty). */
  party: string;
  createdAtMs: number;
  /** When the job joined the start line anew (LINE_REJOIN_EVENTS in the workers' logs). */
  rejoinedAtMs: number[];
}

export interface Interval {
  fromMs: number;
  toMs: number;
}

export const MAX_PURCHASES_PER_JOB = 2;
const CALLBACK_PATH = /\/api\/webhooks\/provider\/staging\/([^/?#]+)\/?$/;

/** The attempt id a prediction's callback URL names, or null for any other URL. */
export function attemptIdOfCallback(url: string | null | undefined): string | null {
  if (!url) return null;
  const match = CALLBACK_PATH.exec(new URL(url).pathname);
  return match?.[1] === undefined ? null : decodeURIComponent(match[1]);
}

export interface PurchaseFindings {
  /** Most purchases of any one job (0 without purchases). */
  maxPerJob: number;
  jobsOverLimit: string[];
  /** Attempts the provider created more than one prediction for. */
  attemptsBoughtTwice: string[];
  /** Jobs whose attempt 2 was bought without attempt 1 having failed with a retryable code. */
  secondWithoutRetryableFirst: string[];
  /** Predictions no attempt holds as its providerPredictionId. */
  unrecorded: string[];
  /** Predictions whose callback names no attempt of this database (counted as unrecorded too). */
  unattributed: string[];
}

export function purchaseFindings(purchases: readonly Purchase[], attempts: readonly AttemptFact[]): PurchaseFindings {
  const attemptById = new Map(attempts.map((a) => [a.id, a]));
  const recorded = new Set(attempts.map((a) => a.providerPredictionId).filter((id): id is string => id !== null));
  const perJob = new Map<string, number>();
  const perAttempt = new Map<string, number>();
  const unattributed: string[] = [];
  for (const purchase of purchases) {
    const attempt = purchase.attemptId === null ? undefined : attemptById.get(purchase.attemptId);
    if (attempt === undefined) {
      unattributed.push(purchase.predictionId);
      continue;
    }
    perJob.set(attempt.aiJobId, (perJob.get(attempt.aiJobId) ?? 0) + 1);
    perAttempt.set(attempt.id, (perAttempt.get(attempt.id) ?? 0) + 1);
  }
  const secondWithoutRetryableFirst: string[] = [];
  for (const attempt of attempts) {
    if (attempt.attemptNumber < 2 || !perAttempt.has(attempt.id)) continue;
    const first = attempts.find((a) => a.aiJobId === attempt.aiJobId && a.attemptNumber === attempt.attemptNumber - 1);
    const retryable = first !== undefined && first.status === 'FAILED' && isRetryableStagingError(first.errorCode);
    if (!retryable) secondWithoutRetryableFirst.push(attempt.aiJobId);
  }
  return {
    maxPerJob: Math.max(0, ...perJob.values()),
    jobsOverLimit: [...perJob].filter(([, count]) => count > MAX_PURCHASES_PER_JOB).map(([job]) => job),
    attemptsBoughtTwice: [...perAttempt].filter(([, count]) => count > 1).map(([attempt]) => attempt),
    secondWithoutRetryableFirst,
    unrecorded: purchases.filter((p) => !recorded.has(p.predictionId)).map((p) => p.predictionId),
    unattributed,
  };
}

/** Purchases created inside any of the intervals (both ends included). */
export function createdWithin(purchases: readonly Purchase[], intervals: readonly Interval[]): string[] {
  return purchases
    .filter((p) => intervals.some((i) => p.createdAtMs >= i.fromMs && p.createdAtMs <= i.toMs))
    .map((p) => p.predictionId);
}

/** Stored keys that no row references and no deletion is queued for. */
export function orphanObjects(stored: readonly string[], referenced: ReadonlySet<string>, queued: ReadonlySet<string>): string[] {
  return stored.filter((key) => !referenced.has(key) && !queued.has(key));
}

/**
 * Purchases beyond `cap` in their UTC day of creation at the provider: the (cap+1)-th and later
 * of each day. None without a cap.
 */
export function overDailyCap(purchases: readonly Purchase[], cap: number | null): string[] {
  if (cap === null) return [];
  const byDay = new Map<number, Purchase[]>();
  for (const purchase of purchases) {
    const day = purchaseDayOf(new Date(purchase.createdAtMs)).start.getTime();
    byDay.set(day, [...(byDay.get(day) ?? []), purchase]);
  }
  return [...byDay.values()].flatMap((day) => day.sort((a, b) => a.createdAtMs - b.createdAtMs).slice(cap).map((p) => p.predictionId));
}

/**
 * Jobs failed closed as PURCHASE_UNCONFIRMED although the simulator's own record (every purchase
 * with the callback URL that names its attempt) says whether the attempt bought: at most one
 * purchase for it means the answer was knowable, so failing the job cost the agent for nothing.
 */
export function unconfirmedYetDecided(attempts: readonly AttemptFact[], purchases: readonly Purchase[]): string[] {
  return attempts
    .filter((a) => a.errorCode === 'PURCHASE_UNCONFIRMED' && purchases.filter((p) => p.attemptId === a.id).length <= 1)
    .map((a) => a.aiJobId);
}

/**
 * Purchases still running after the drain that no attempt holds: nothing in the ledger will ever
 * cancel or claim them, so only the orphan reconciliation (or their Cancel-After) stops them.
 */
export function orphansLeftRunning(purchases: readonly Purchase[], attempts: readonly AttemptFact[]): string[] {
  const held = new Set(attempts.map((a) => a.providerPredictionId));
  return purchases.filter((p) => (p.status === 'starting' || p.status === 'processing') && !held.has(p.predictionId)).map((p) => p.predictionId);
}

export function stuckJobs(jobs: readonly JobFact[]): string[] {
  return jobs.filter((job) => !isTerminalJobStatus(job.status)).map((job) => job.id);
}

export interface AuditFacts {
  purchases: Purchase[];
  createCalls: CreateCall[];
  attempts: AttemptFact[];
  jobs: JobFact[];
  storedKeys: string[];
  referencedKeys: Set<string>;
  queuedKeys: Set<string>;
  killSwitchOff: Interval[];
  rateLimitPerMinute: number;
  /** AI_DAILY_PURCHASE_CAP of the run; null when none was set. */
  dailyPurchaseCap: number | null;
}

export interface InvariantResult {
  name: string;
  figure: string;
  target: string;
  ok: boolean;
  /** A few offending ids, for the rerun. */
  examples: string[];
}

export const RATE_WINDOW_MS = 60_000;

export const INVARIANT_NAMES = [
  'purchases per job',
  'attempts bought twice',
  'attempt 2 without a retryable failure of attempt 1',
  'purchases not recorded in ai_provider_attempts',
  'jobs stuck nonterminal after the drain',
  'stored objects neither referenced nor queued for deletion',
  'sliding-window paid-start peak / limit',
  'predictions created while the kill switch was off',
  'purchases over the daily cap',
  "jobs failed PURCHASE_UNCONFIRMED although the simulator's own record decides them",
  'starts out of fair order beyond one interval',
  'orphan predictions left running after the drain',
] as const;

function zero(name: (typeof INVARIANT_NAMES)[number], offenders: string[]): InvariantResult {
  return { name, figure: String(offenders.length), target: '0', ok: offenders.length === 0, examples: offenders.slice(0, 5) };
}

/** One result per entry of INVARIANT_NAMES, in that order. */
export function evaluateInvariants(facts: AuditFacts): InvariantResult[] {
  const findings = purchaseFindings(facts.purchases, facts.attempts);
  const peak = slidingWindowPeak(facts.purchases.map((p) => p.createdAtMs), RATE_WINDOW_MS);
  const ratio = peak / facts.rateLimitPerMinute;
  return [
    {
      name: INVARIANT_NAMES[0],
      figure: `max ${findings.maxPerJob} (${facts.purchases.length} purchases, ${facts.jobs.length} jobs)`,
      target: `≤ ${MAX_PURCHASES_PER_JOB}`,
      ok: findings.jobsOverLimit.length === 0,
      examples: findings.jobsOverLimit.slice(0, 5),
    },
    zero(INVARIANT_NAMES[1], findings.attemptsBoughtTwice),
    zero(INVARIANT_NAMES[2], findings.secondWithoutRetryableFirst),
    zero(INVARIANT_NAMES[3], findings.unrecorded),
    zero(INVARIANT_NAMES[4], stuckJobs(facts.jobs)),
    zero(INVARIANT_NAMES[5], orphanObjects(facts.storedKeys, facts.referencedKeys, facts.queuedKeys)),
    {
      name: INVARIANT_NAMES[6],
      figure: `${ratio.toFixed(2)} (peak ${peak} in ${RATE_WINDOW_MS / 1000} s, limit ${facts.rateLimitPerMinute})`,
      target: '≤ 1.00',
      ok: peak <= facts.rateLimitPerMinute,
      examples: [],
    },
    zero(INVARIANT_NAMES[7], createdWithin(facts.purchases, facts.killSwitchOff)),
    {
      ...zero(INVARIANT_NAMES[8], overDailyCap(facts.purchases, facts.dailyPurchaseCap)),
      target: facts.dailyPurchaseCap === null ? '0; no cap set' : `0; cap ${facts.dailyPurchaseCap} per UTC day`,
    },
    zero(INVARIANT_NAMES[9], unconfirmedYetDecided(facts.attempts, facts.purchases)),
    zero(INVARIANT_NAMES[10], startsOutOfFairOrder(facts.createCalls, facts.attempts, facts.jobs, startIntervalMs(facts.rateLimitPerMinute, RATE_WINDOW_MS))),
    zero(INVARIANT_NAMES[11], orphansLeftRunning(facts.purchases, facts.attempts)),
  ];
}

/**
 * Start-time fair queueing keeps the starts of two parties that both wait within this many of
 * each other (Goyal, Vin and Cheng's bound, one unit per start and equal shares: 1 + 1).
 */
export const FAIR_START_ALLOWANCE = 2;

/**
 * Jobs whose first start another agent overtook unfairly: while the job waited (from one interval
 * after it last joined the line, time enough to take its place, to its first create call), some
 * other party got more than {@link FAIR_START_ALLOWANCE} starts beyond those of the job's own
 * party. It joins at its submission, and again after a repair put back its lost queue message or
 * after its granted slot went with a run that died before the provider saw the call: the line's
 * state is in Redis, and a place held before either is not owed. A start is a create call, bought
 * or refused (a slot was spent on it either way).
 */
export function startsOutOfFairOrder(calls: readonly CreateCall[], attempts: readonly AttemptFact[], jobs: readonly JobFact[], intervalMs: number): string[] {
  const attemptById = new Map(attempts.map((a) => [a.id, a]));
  const jobById = new Map(jobs.map((job) => [job.id, job]));
  const starts = calls.flatMap((call) => {
    const attempt = call.attemptId === null ? undefined : attemptById.get(call.attemptId);
    const job = attempt === undefined ? undefined : jobById.get(attempt.aiJobId);
    return attempt === undefined || job === undefined ? [] : [{ job, attemptNumber: attempt.attemptNumber, atMs: call.atMs }];
  });
  const firstStarts = new Map<string, (typeof starts)[number]>();
  for (const start of starts) {
    const earlier = firstStarts.get(start.job.id);
    if (start.attemptNumber === 1 && (earlier === undefined || start.atMs < earlier.atMs)) firstStarts.set(start.job.id, start);
  }
  const overtaken: string[] = [];
  for (const start of firstStarts.values()) {
    const joinedAtMs = Math.max(start.job.createdAtMs, ...start.job.rejoinedAtMs.filter((atMs) => atMs < start.atMs));
    const from = joinedAtMs + intervalMs;
    const perParty = new Map<string, number>();
    for (const other of starts) {
      if (other.atMs > from && other.atMs < start.atMs) perParty.set(other.job.party, (perParty.get(other.job.party) ?? 0) + 1);
    }
    const own = perParty.get(start.job.party) ?? 0;
    if ([...perParty].some(([party, count]) => party !== start.job.party && count > own + FAIR_START_ALLOWANCE)) overtaken.push(start.job.id);
  }
  return overtaken;
}

/**
 * Every status write of a staging job (ai_jobs of type ROOM_STAGING) outside submission and
 * cancel. Each names the event of packages/domain/src/staging-states.ts it applies and takes its
 * guard from JOB_TRANSITIONS, so a stale run or a concurrent cancel makes it match nothing
 * instead of applying a move the table forbids; callers look at the result and re-read.
 */
import type { Db, Prisma } from '@staging/db/client';
import { NONTERMINAL_JOB_STATUSES, jobMachine, nextJobStatus } from '@staging/domain/staging-states';
import type { JobEvent, JobStatus } from '@staging/domain/staging-states';
import type { LedgerWriter } from './ledger-transaction';

/** Columns a move writes besides the status, which the table decides. */
type JobMoveData = Omit<Prisma.AiJobUpdateManyMutationInput, 'status'>;
/** A job as the caller read it. */
export interface ReadJob {
  id: string;
  status: JobStatus;
}

async function updateJobIn(db: LedgerWriter, jobId: string, from: readonly JobStatus[], data: Prisma.AiJobUpdateManyMutationInput): Promise<boolean> {
  const now = new Date();
  const { count } = await db.aiJob.updateMany({
    where: { id: jobId, status: { in: [...from] } },
    data: { heartbeatAt: now, updatedAt: now, ...data },
  });
  return count === 1;
}

/**
 * Applies `event` (one whose target is the same from every status, e.g. WORKER_PICKED_UP) while
 * the job is in any status the table moves from. True when the job moved.
 */
export function moveJob(db: LedgerWriter, jobId: string, event: JobEvent, data: JobMoveData = {}): Promise<boolean> {
  const { to, from } = jobMachine.fixedMove(event);
  return updateJobIn(db, jobId, from, { ...data, status: to });
}

/**
 * Applies `event` to a job read in `job.status`: to the status the table leads to from there, and
 * only while the job is still in it. A move the table forbids writes nothing and answers false.
 * For events whose target depends on the start (PROVIDER_DISABLED keeps the status) and for
 * moves that must not apply from a status other than the one the step was decided on.
 */
export async function moveJobFrom(db: LedgerWriter, job: ReadJob, event: JobEvent, data: JobMoveData = {}): Promise<boolean> {
  const to = nextJobStatus(job.status, event);
  if (to === null) return false;
  return updateJobIn(db, job.id, [job.status], { ...data, status: to });
}

/** Changes only the phase of a job read in `job.status`, while it is still in it. */
export function setJobPhase(db: LedgerWriter, job: ReadJob, phase: string | null): Promise<boolean> {
  return updateJobIn(db, job.id, [job.status], { phase });
}

/** Marks the job alive; nonterminal jobs only, so a finished job keeps its last heartbeat. */
export async function touchHeartbeat(db: Db, jobId: string): Promise<void> {
  await db.aiJob.updateMany({
    where: { id: jobId, status: { in: [...NONTERMINAL_JOB_STATUSES] } },
    data: { heartbeatAt: new Date() },
  });
}

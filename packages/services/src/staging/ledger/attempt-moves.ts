/**
 * Every write of a provider attempt (ai_provider_attempts) by the worker. Status moves name the
 * event of packages/domain/src/attempt-states.ts they apply; writes that keep the status are
 * guarded by the event they prepare, so a note never lands on an attempt that has moved past it.
 */
import type { Prisma } from '@staging/db/client';
import { attemptMachine, attemptStatusesAccepting } from '@staging/domain/attempt-states';
import type { AttemptEvent, AttemptStatus } from '@staging/domain/attempt-states';
import { jobStatusesAccepting } from '@staging/domain/staging-states';
import type { LedgerWriter } from './ledger-transaction';

/** Columns a move writes besides the status, which the table decides. */
type AttemptMoveData = Omit<Prisma.AiProviderAttemptUpdateManyMutationInput, 'status'>;

const createStarted = attemptMachine.fixedMove('CREATE_STARTED');

async function updateAttemptIn(
  db: LedgerWriter,
  attemptId: string,
  from: readonly AttemptStatus[],
  data: Prisma.AiProviderAttemptUpdateManyMutationInput,
  extraWhere: Prisma.AiProviderAttemptWhereInput = {},
): Promise<boolean> {
  const { count } = await db.aiProviderAttempt.updateMany({
    where: { id: attemptId, status: { in: [...from] }, ...extraWhere },
    data,
  });
  return count === 1;
}

/** Inserts attempt `attemptNumber` as RESERVED unless it exists (the unique index decides). */
export async function insertReservedAttempt(db: LedgerWriter, jobId: string, attemptNumber: 1 | 2): Promise<void> {
  await db.aiProviderAttempt.createMany({
    data: [{ aiJobId: jobId, attemptNumber, status: 'RESERVED' }],
    skipDuplicates: true,
  });
}

/**
 * Applies `event` while the attempt is in any status the table moves from; `extraWhere` narrows
 * it further (e.g. which prediction ID the row may hold). True when the attempt moved.
 */
export function moveAttempt(
  db: LedgerWriter,
  attemptId: string,
  event: AttemptEvent,
  data: AttemptMoveData = {},
  extraWhere: Prisma.AiProviderAttemptWhereInput = {},
): Promise<boolean> {
  const { to, from } = attemptMachine.fixedMove(event);
  return updateAttemptIn(db, attemptId, from, { ...data, status: to }, extraWhere);
}

/**
 * CREATE_STARTED: the attempt says "a purchase may be in flight" right before the create call.
 * A CREATING attempt starts again too, keeping its status: the recovery proved its earlier call
 * bought nothing, or the provider answered it 429. What keeps that from buying twice is the
 * missing prediction ID, which this write requires.
 */
export function markAttemptCreating(db: LedgerWriter, attemptId: string, data: AttemptMoveData): Promise<boolean> {
  return updateAttemptIn(
    db,
    attemptId,
    [...createStarted.from, createStarted.to],
    { ...data, status: createStarted.to },
    { providerPredictionId: null },
  );
}

/**
 * Notes why the latest create call got no prediction (429, transport failure) on an attempt still
 * waiting for its prediction ID, and only while nothing has tied one to it.
 */
export function noteCreateError(db: LedgerWriter, attemptId: string, note: { errorCode: string; errorMessage: string }): Promise<boolean> {
  return updateAttemptIn(db, attemptId, attemptStatusesAccepting('PREDICTION_PERSISTED'), note, { providerPredictionId: null });
}

/** Records the provider's terminal status once, on an attempt that is still waiting for it. */
export function recordProviderCompletion(db: LedgerWriter, attemptId: string, providerStatus: string): Promise<boolean> {
  return updateAttemptIn(
    db,
    attemptId,
    attemptStatusesAccepting('PROVIDER_SUCCEEDED'),
    { providerStatus, providerCompletedAt: new Date() },
    { providerCompletedAt: null },
  );
}

/**
 * Records where the validated output will be stored, before it is uploaded, so an object in
 * storage is always traceable to its attempt. Only while both the attempt and its job can still
 * succeed: a cancel committed during the download wins before anything is stored.
 */
export function recordAttemptOutput(db: LedgerWriter, attemptId: string, output: AttemptMoveData): Promise<boolean> {
  return updateAttemptIn(db, attemptId, attemptStatusesAccepting('PROVIDER_SUCCEEDED'), output, {
    aiJob: { status: { in: jobStatusesAccepting('SUCCEEDED') } },
  });
}

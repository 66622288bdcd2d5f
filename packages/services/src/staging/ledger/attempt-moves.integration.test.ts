import { randomUUID } from 'node:crypto';
import { createStagingJob } from '@staging/db/testing/factories';
import { ATTEMPT_EVENTS, ATTEMPT_STATUSES, nextAttemptStatus } from '@staging/domain/attempt-states';
import type { AttemptStatus } from '@staging/domain/attempt-states';
import type { JobStatus } from '@staging/domain/staging-states';
import { useLedgerTestContext } from '../testing/staging-test-kit';
import {
  insertReservedAttempt,
  markAttemptCreating,
  moveAttempt,
  noteCreateError,
  recordAttemptOutput,
  recordProviderCompletion,
} from './attempt-moves';

// As for jobs, the attempt table is the oracle: every (status, event) pair meets the database.
const ctx = useLedgerTestContext();

async function attemptIn(
  status: AttemptStatus,
  options: { predictionId?: string | null; jobStatus?: JobStatus } = {},
): Promise<string> {
  const job = await createStagingJob(ctx.db, {
    original: ctx.original,
    job: { status: options.jobStatus ?? 'PROCESSING' },
    attempts: [{ status, providerPredictionId: options.predictionId ?? null }],
  });
  return job.attempts[0]!.id;
}

async function read(attemptId: string) {
  return ctx.db.aiProviderAttempt.findUniqueOrThrow({
    where: { id: attemptId },
    select: { status: true, errorCode: true, creatingAt: true, providerStatus: true, providerCompletedAt: true, outputObjectKey: true },
  });
}

const everyPair = ATTEMPT_STATUSES.flatMap((status) => ATTEMPT_EVENTS.map((event) => [status, event] as const));

describe('moveAttempt', () => {
  it.each(everyPair)('a %s attempt given %s moves exactly as the table says', async (status, event) => {
    const attemptId = await attemptIn(status);
    const to = nextAttemptStatus(status, event);

    expect(await moveAttempt(ctx.db, attemptId, event, { errorCode: 'WRITTEN_BY_THE_MOVE' })).toBe(to !== null);

    expect(await read(attemptId)).toMatchObject({ status: to ?? status, errorCode: to === null ? null : 'WRITTEN_BY_THE_MOVE' });
  });

  it('applies the caller\'s extra condition too', async () => {
    const attemptId = await attemptIn('CREATING', { predictionId: `p-${randomUUID()}` });
    expect(await moveAttempt(ctx.db, attemptId, 'PREDICTION_PERSISTED', {}, { providerPredictionId: null })).toBe(false);
    expect((await read(attemptId)).status).toBe('CREATING');
  });
});

describe('insertReservedAttempt', () => {
  it('reserves an attempt once; a second insert of the same number changes nothing', async () => {
    const job = await createStagingJob(ctx.db, { original: ctx.original, job: { status: 'PROCESSING' } });
    await insertReservedAttempt(ctx.db, job.id, 1);
    await ctx.db.aiProviderAttempt.updateMany({ where: { aiJobId: job.id }, data: { status: 'CREATING' } });
    await insertReservedAttempt(ctx.db, job.id, 1);
    expect(await ctx.db.aiProviderAttempt.findMany({ where: { aiJobId: job.id }, select: { attemptNumber: true, status: true } })).toEqual([
      { attemptNumber: 1, status: 'CREATING' },
    ]);
  });
});

describe('markAttemptCreating', () => {
  const creatingAt = new Date('2026-11-30T10:00:00.000Z');

  it.each(['RESERVED', 'CREATING'] as const)('marks a %s attempt without a prediction CREATING', async (status) => {
    const attemptId = await attemptIn(status);
    expect(await markAttemptCreating(ctx.db, attemptId, { creatingAt })).toBe(true);
    expect(await read(attemptId)).toMatchObject({ status: 'CREATING', creatingAt });
  });

  it('never starts a create on an attempt a prediction is tied to', async () => {
    const attemptId = await attemptIn('CREATING', { predictionId: `p-${randomUUID()}` });
    expect(await markAttemptCreating(ctx.db, attemptId, { creatingAt })).toBe(false);
    expect((await read(attemptId)).creatingAt).toBeNull();
  });

  it.each(ATTEMPT_STATUSES.filter((s) => s !== 'RESERVED' && s !== 'CREATING'))('never starts a create on a %s attempt', async (status) => {
    const attemptId = await attemptIn(status);
    expect(await markAttemptCreating(ctx.db, attemptId, { creatingAt })).toBe(false);
    expect(await read(attemptId)).toMatchObject({ status, creatingAt: null });
  });
});

describe('noteCreateError', () => {
  const note = { errorCode: 'PROVIDER_THROTTLED', errorMessage: '429' };

  it('notes the answer of a create call on an attempt still waiting for its prediction', async () => {
    const attemptId = await attemptIn('CREATING');
    expect(await noteCreateError(ctx.db, attemptId, note)).toBe(true);
    expect(await read(attemptId)).toMatchObject({ status: 'CREATING', errorCode: 'PROVIDER_THROTTLED' });
  });

  it('leaves an attempt alone once a prediction is tied to it or it moved on', async () => {
    for (const attemptId of [
      await attemptIn('CREATING', { predictionId: `p-${randomUUID()}` }),
      await attemptIn('RESERVED'),
      await attemptIn('ACTIVE'),
      await attemptIn('FAILED'),
    ]) {
      expect(await noteCreateError(ctx.db, attemptId, note)).toBe(false);
      expect((await read(attemptId)).errorCode).toBeNull();
    }
  });
});

describe('recordProviderCompletion', () => {
  it('records the provider\'s terminal status once, on an ACTIVE attempt only', async () => {
    const attemptId = await attemptIn('ACTIVE', { predictionId: `p-${randomUUID()}` });
    expect(await recordProviderCompletion(ctx.db, attemptId, 'succeeded')).toBe(true);
    const first = await read(attemptId);
    expect(first).toMatchObject({ status: 'ACTIVE', providerStatus: 'succeeded' });
    expect(await recordProviderCompletion(ctx.db, attemptId, 'failed')).toBe(false);
    expect(await read(attemptId)).toEqual(first);

    const creating = await attemptIn('CREATING');
    expect(await recordProviderCompletion(ctx.db, creating, 'succeeded')).toBe(false);
    expect((await read(creating)).providerCompletedAt).toBeNull();
  });
});

describe('recordAttemptOutput', () => {
  it('records the output key while the attempt and its job can still succeed', async () => {
    const attemptId = await attemptIn('ACTIVE', { predictionId: `p-${randomUUID()}` });
    expect(await recordAttemptOutput(ctx.db, attemptId, { outputObjectKey: 'staged/a.jpg' })).toBe(true);
    expect((await read(attemptId)).outputObjectKey).toBe('staged/a.jpg');
  });

  it('stores nothing once a cancel was requested, or for an attempt that ended', async () => {
    for (const attemptId of [
      await attemptIn('ACTIVE', { predictionId: `p-${randomUUID()}`, jobStatus: 'CANCEL_REQUESTED' }),
      await attemptIn('DISCARDED', { predictionId: `p-${randomUUID()}` }),
    ]) {
      expect(await recordAttemptOutput(ctx.db, attemptId, { outputObjectKey: 'staged/b.jpg' })).toBe(false);
      expect((await read(attemptId)).outputObjectKey).toBeNull();
    }
  });
});

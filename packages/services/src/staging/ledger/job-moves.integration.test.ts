import { createStagingJob } from '@staging/db/testing/factories';
import { JOB_EVENTS, JOB_STATUSES, isNonterminalJobStatus, nextJobStatus } from '@staging/domain/staging-states';
import type { JobEvent, JobStatus } from '@staging/domain/staging-states';
import { useLedgerTestContext } from '../testing/staging-test-kit';
import { requestJobCancel } from './cancel-request';
import { moveJob, moveJobFrom, setJobPhase, touchHeartbeat } from './job-moves';

// The transition table is the oracle: every (status, event) pair is tried against the database,
// so a guard that lets a forbidden move through, or stops an allowed one, fails here.
const ctx = useLedgerTestContext();

async function jobIn(status: JobStatus, phase: string | null = null): Promise<string> {
  return (await createStagingJob(ctx.db, { original: ctx.original, job: { status, phase } })).id;
}

async function read(jobId: string) {
  return ctx.db.aiJob.findUniqueOrThrow({
    where: { id: jobId },
    select: { status: true, phase: true, heartbeatAt: true, cancelRequestedAt: true, canceledAt: true },
  });
}

const targetsOf = (event: JobEvent) => new Set(JOB_STATUSES.map((from) => nextJobStatus(from, event)).filter((to) => to !== null));
const everyPair = JOB_STATUSES.flatMap((status) => JOB_EVENTS.map((event) => [status, event] as const));
const fixedTargetPairs = everyPair.filter(([, event]) => targetsOf(event).size === 1);

describe('moveJob', () => {
  it.each(fixedTargetPairs)('a %s job given %s moves exactly as the table says', async (status, event) => {
    const jobId = await jobIn(status);
    const to = nextJobStatus(status, event);

    expect(await moveJob(ctx.db, jobId, event, { errorMessage: 'written by the move' })).toBe(to !== null);

    const after = await read(jobId);
    expect(after.status).toBe(to ?? status);
    expect(after.heartbeatAt !== null).toBe(to !== null);
  });

  it.each(JOB_EVENTS.filter((event) => targetsOf(event).size > 1))('refuses %s, whose target depends on the start', async (event) => {
    const jobId = await jobIn('PENDING');
    expect(() => moveJob(ctx.db, jobId, event)).toThrow('move from the status the row was read in');
    expect((await read(jobId)).status).toBe('PENDING');
  });
});

describe('moveJobFrom', () => {
  it.each(everyPair)('a job read %s given %s moves exactly as the table says', async (status, event) => {
    const jobId = await jobIn(status);
    const to = nextJobStatus(status, event);

    expect(await moveJobFrom(ctx.db, { id: jobId, status }, event, { phase: 'MOVED' })).toBe(to !== null);

    expect(await read(jobId)).toMatchObject({ status: to ?? status, phase: to === null ? null : 'MOVED' });
  });

  it('matches nothing once the job has left the status it was read in', async () => {
    const jobId = await jobIn('PROCESSING');
    // The table would move a PENDING job, but this one moved on since the read.
    expect(await moveJobFrom(ctx.db, { id: jobId, status: 'PENDING' }, 'TERMINAL_FAILURE')).toBe(false);
    expect(await moveJobFrom(ctx.db, { id: jobId, status: 'PENDING' }, 'PROVIDER_DISABLED', { phase: 'PROVIDER_DISABLED' })).toBe(false);
    expect(await read(jobId)).toMatchObject({ status: 'PROCESSING', phase: null });
  });
});

describe('setJobPhase', () => {
  it('changes only the phase, and only while the job is where it was read', async () => {
    const jobId = await jobIn('PROCESSING', 'PROVIDER_DISABLED');
    expect(await setJobPhase(ctx.db, { id: jobId, status: 'RETRYING' }, null)).toBe(false);
    expect(await read(jobId)).toMatchObject({ status: 'PROCESSING', phase: 'PROVIDER_DISABLED' });

    expect(await setJobPhase(ctx.db, { id: jobId, status: 'PROCESSING' }, null)).toBe(true);
    expect(await read(jobId)).toMatchObject({ status: 'PROCESSING', phase: null });
  });
});

describe('touchHeartbeat', () => {
  it.each(JOB_STATUSES)('touches a %s job only while it can still move', async (status) => {
    const jobId = await jobIn(status);
    await touchHeartbeat(ctx.db, jobId);
    expect((await read(jobId)).heartbeatAt !== null).toBe(isNonterminalJobStatus(status));
  });
});

describe('requestJobCancel', () => {
  it.each(JOB_STATUSES)('cancels a %s job as the table says, leaving a repeat request alone', async (status) => {
    const jobId = await jobIn(status);
    const now = new Date('2026-11-30T10:00:00.000Z');
    const to = nextJobStatus(status, 'CANCEL');
    const moves = to !== null && to !== status;

    expect(await requestJobCancel(ctx.db, jobId, now)).toEqual(moves ? { fromStatus: status, status: to } : undefined);

    expect(await read(jobId)).toMatchObject({
      status: moves ? to : status,
      cancelRequestedAt: moves ? now : null,
      canceledAt: moves && to === 'CANCELED' ? now : null,
    });
  });
});

import { itFollowsTheExpectedTable } from './transition-table-cases';
import {
  JOB_EVENTS,
  JOB_STATUSES,
  JOB_TRANSITIONS,
  NONTERMINAL_JOB_STATUSES,
  TERMINAL_JOB_STATUSES,
  isNonterminalJobStatus,
  isTerminalJobStatus,
  jobStatusesAccepting,
  jobStatusesLeadingTo,
  nextJobStatus,
  outcomeOfAttemptFailure,
  transitionJob,
} from './staging-states';
import type { JobEvent, JobStatus } from './staging-states';

// The complete expected table, written out cell by cell: every (status, event) pair not listed
// here must be refused.
const allowed: Array<[JobStatus, JobEvent, JobStatus]> = [
  ['PENDING', 'WORKER_PICKED_UP', 'PROCESSING'],
  ['PENDING', 'PROVIDER_DISABLED', 'PENDING'],
  ['PENDING', 'TERMINAL_FAILURE', 'FAILED'],
  ['PENDING', 'CANCEL', 'CANCELED'],
  ['PENDING', 'ORIGINAL_DELETED', 'CANCELED'],
  ['PROCESSING', 'PROVIDER_DISABLED', 'PROCESSING'],
  ['PROCESSING', 'SUCCEEDED', 'SUCCESS'],
  ['PROCESSING', 'RETRYABLE_FAILURE', 'RETRYING'],
  ['PROCESSING', 'TERMINAL_FAILURE', 'FAILED'],
  ['PROCESSING', 'CANCEL', 'CANCEL_REQUESTED'],
  ['PROCESSING', 'ORIGINAL_DELETED', 'CANCEL_REQUESTED'],
  ['RETRYING', 'PROVIDER_DISABLED', 'RETRYING'],
  ['RETRYING', 'RETRY_STARTED', 'PROCESSING'],
  ['RETRYING', 'TERMINAL_FAILURE', 'FAILED'],
  ['RETRYING', 'CANCEL', 'CANCEL_REQUESTED'],
  ['RETRYING', 'ORIGINAL_DELETED', 'CANCEL_REQUESTED'],
  ['CANCEL_REQUESTED', 'CANCEL', 'CANCEL_REQUESTED'],
  ['CANCEL_REQUESTED', 'ORIGINAL_DELETED', 'CANCEL_REQUESTED'],
  ['CANCEL_REQUESTED', 'CANCEL_FINALIZED', 'CANCELED'],
  ['CANCEL_REQUESTED', 'OUTPUT_DISCARDED', 'CANCELED'],
];

const everyPair = JOB_STATUSES.flatMap((from) => JOB_EVENTS.map((event) => [from, event] as const));

describe('job state machine', () => {
  it('has the statuses of docs/system.md 3.1 plus FAILED, split into nonterminal and terminal', () => {
    expect(JOB_STATUSES).toEqual(['PENDING', 'PROCESSING', 'RETRYING', 'CANCEL_REQUESTED', 'SUCCESS', 'CANCELED', 'FAILED']);
    expect(NONTERMINAL_JOB_STATUSES).toEqual(['PENDING', 'PROCESSING', 'RETRYING', 'CANCEL_REQUESTED']);
    expect(TERMINAL_JOB_STATUSES).toEqual(['SUCCESS', 'CANCELED', 'FAILED']);
    for (const status of JOB_STATUSES) expect(isTerminalJobStatus(status)).toBe(!isNonterminalJobStatus(status));
  });

  itFollowsTheExpectedTable({
    states: JOB_STATUSES,
    events: JOB_EVENTS,
    table: JOB_TRANSITIONS,
    machine: { next: nextJobStatus, transition: transitionJob },
    allowed,
  });

  it('lets no terminal status move and no event leave a terminal status', () => {
    for (const status of TERMINAL_JOB_STATUSES) expect(JOB_TRANSITIONS[status]).toEqual({});
  });

  it('reaches SUCCESS only from PROCESSING, so a cancel request can never end in a new image', () => {
    const intoSuccess = everyPair.filter(([from, event]) => nextJobStatus(from, event) === 'SUCCESS');
    expect(intoSuccess).toEqual([['PROCESSING', 'SUCCEEDED']]);
  });

  it('derives the guard sets used by conditional updates', () => {
    expect(jobStatusesLeadingTo('CANCEL', 'CANCELED')).toEqual(['PENDING']);
    expect(jobStatusesLeadingTo('CANCEL', 'CANCEL_REQUESTED')).toEqual(['PROCESSING', 'RETRYING', 'CANCEL_REQUESTED']);
    expect(jobStatusesLeadingTo('TERMINAL_FAILURE', 'FAILED')).toEqual(['PENDING', 'PROCESSING', 'RETRYING']);
  });

  it('names the statuses that accept an event, whatever it leads to', () => {
    expect(jobStatusesAccepting('PROVIDER_DISABLED')).toEqual(['PENDING', 'PROCESSING', 'RETRYING']);
    expect(jobStatusesAccepting('CANCEL')).toEqual(['PENDING', 'PROCESSING', 'RETRYING', 'CANCEL_REQUESTED']);
    expect(jobStatusesAccepting('SUCCEEDED')).toEqual(['PROCESSING']);
  });
});

describe('outcomeOfAttemptFailure', () => {
  it('schedules a retry for a retryable failure of attempt 1', () => {
    expect(outcomeOfAttemptFailure(1, 'PROVIDER_FAILED')).toEqual({ event: 'RETRYABLE_FAILURE', jobErrorCode: 'PROVIDER_FAILED' });
  });

  it('ends the job with ATTEMPTS_EXHAUSTED for a retryable failure of attempt 2', () => {
    expect(outcomeOfAttemptFailure(2, 'PROVIDER_UNAVAILABLE')).toEqual({ event: 'TERMINAL_FAILURE', jobErrorCode: 'ATTEMPTS_EXHAUSTED' });
  });

  it('ends the job with the code itself for terminal and unknown codes', () => {
    expect(outcomeOfAttemptFailure(1, 'PROVIDER_AUTH')).toEqual({ event: 'TERMINAL_FAILURE', jobErrorCode: 'PROVIDER_AUTH' });
    expect(outcomeOfAttemptFailure(1, 'SOMETHING_NEW')).toEqual({ event: 'TERMINAL_FAILURE', jobErrorCode: 'SOMETHING_NEW' });
  });
});

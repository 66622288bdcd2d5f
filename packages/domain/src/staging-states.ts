import { MAX_ATTEMPTS_PER_JOB } from './attempt-states';
import { isOneOf } from './one-of';
import { stateMachine } from './state-machine';
import type { TransitionTable } from './state-machine';
import { isRetryableStagingError } from './staging-errors';

/**
 * ai_jobs.status of a ROOM_STAGING job: docs/system.md 3.1 plus FAILED, the terminal failure status
 * (docs/decisions/staging.md "Terminal failure status of a job"). Matches the database enum `AiJobStatus`.
 */
export const JOB_STATUSES = ['PENDING', 'PROCESSING', 'RETRYING', 'CANCEL_REQUESTED', 'SUCCESS', 'CANCELED', 'FAILED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Statuses a job can still leave; the dedupe index covers exactly these (docs/system.md 3.1). */
export const NONTERMINAL_JOB_STATUSES = ['PENDING', 'PROCESSING', 'RETRYING', 'CANCEL_REQUESTED'] as const satisfies readonly JobStatus[];

/** Statuses a job never leaves. */
export const TERMINAL_JOB_STATUSES = ['SUCCESS', 'CANCELED', 'FAILED'] as const satisfies readonly JobStatus[];

/** A nonterminal status. */
export type NonterminalJobStatus = (typeof NONTERMINAL_JOB_STATUSES)[number];
/** A terminal status. */
export type TerminalJobStatus = (typeof TERMINAL_JOB_STATUSES)[number];

/**
 * What can happen to a job.
 *
 * - WORKER_PICKED_UP: a worker starts a PENDING job with the flag on (event worker_started).
 * - PROVIDER_DISABLED: the kill switch is off when the worker looks; status is kept and the phase
 *   becomes PROVIDER_DISABLED, so nothing is bought and the job resumes later.
 * - RETRY_STARTED: the worker resumes a RETRYING job to buy attempt 2.
 * - SUCCEEDED: output validated, stored and finalized (one PENDING_REVIEW image).
 * - RETRYABLE_FAILURE: attempt 1 ended in a retryable provider/transport failure (retry_scheduled).
 * - TERMINAL_FAILURE: a non-retryable failure, or a retryable one with no attempt left (terminal_error).
 * - CANCEL: an agent asks to cancel.
 * - ORIGINAL_DELETED: the original photo was deleted (the database trigger applies the same moves).
 * - CANCEL_FINALIZED: the worker handled the provider side of a requested cancel (event canceled).
 * - OUTPUT_DISCARDED: the provider finished first and the stored output goes to the deletion outbox.
 */
// prettier-ignore
export const JOB_EVENTS = [
  'WORKER_PICKED_UP', 'PROVIDER_DISABLED', 'RETRY_STARTED', 'SUCCEEDED', 'RETRYABLE_FAILURE',
  'TERMINAL_FAILURE', 'CANCEL', 'ORIGINAL_DELETED', 'CANCEL_FINALIZED', 'OUTPUT_DISCARDED',
] as const;
export type JobEvent = (typeof JOB_EVENTS)[number];

/**
 * The whole job state machine: for each status, the events it accepts and the status they lead
 * to. A missing entry is a forbidden move. Terminal statuses accept nothing.
 */
export const JOB_TRANSITIONS: TransitionTable<JobStatus, JobEvent> = {
  PENDING: {
    WORKER_PICKED_UP: 'PROCESSING',
    PROVIDER_DISABLED: 'PENDING',
    // e.g. ORIGINAL_MISSING found before anything was bought.
    TERMINAL_FAILURE: 'FAILED',
    CANCEL: 'CANCELED',
    ORIGINAL_DELETED: 'CANCELED',
  },
  PROCESSING: {
    // A reserved but uncreated attempt waits unpaid while the switch is off.
    PROVIDER_DISABLED: 'PROCESSING',
    SUCCEEDED: 'SUCCESS',
    RETRYABLE_FAILURE: 'RETRYING',
    TERMINAL_FAILURE: 'FAILED',
    CANCEL: 'CANCEL_REQUESTED',
    ORIGINAL_DELETED: 'CANCEL_REQUESTED',
  },
  RETRYING: {
    PROVIDER_DISABLED: 'RETRYING',
    RETRY_STARTED: 'PROCESSING',
    TERMINAL_FAILURE: 'FAILED',
    CANCEL: 'CANCEL_REQUESTED',
    ORIGINAL_DELETED: 'CANCEL_REQUESTED',
  },
  CANCEL_REQUESTED: {
    // Repeat cancels are accepted and change nothing (docs/system.md 3.1: safe, buys nothing).
    CANCEL: 'CANCEL_REQUESTED',
    ORIGINAL_DELETED: 'CANCEL_REQUESTED',
    CANCEL_FINALIZED: 'CANCELED',
    OUTPUT_DISCARDED: 'CANCELED',
  },
  SUCCESS: {},
  CANCELED: {},
  FAILED: {},
};

/** True for PENDING, PROCESSING, RETRYING and CANCEL_REQUESTED. */
export function isNonterminalJobStatus(status: JobStatus): status is NonterminalJobStatus {
  return isOneOf(NONTERMINAL_JOB_STATUSES, status);
}

/** True for SUCCESS, CANCELED and FAILED. */
export function isTerminalJobStatus(status: JobStatus): status is TerminalJobStatus {
  return isOneOf(TERMINAL_JOB_STATUSES, status);
}

/** The staging job's machine, for guards read off the table (jobMachine.fixedMove). */
export const jobMachine = stateMachine(JOB_STATUSES, JOB_TRANSITIONS, 'staging job');

/** The status `event` leads to from `from`, or null when the move is forbidden. */
export const nextJobStatus = jobMachine.next;

/** The status `event` leads to from `from`; throws AppError CONFLICT when the table forbids the move. */
export const transitionJob = jobMachine.transition;

/**
 * Every status from which `event` leads to `to`. Use cases build their conditional
 * `UPDATE … WHERE status IN (…)` from this, so a race with another writer can only make the
 * update match nothing, never apply a move the table forbids.
 */
export const jobStatusesLeadingTo = jobMachine.statesLeadingTo;

/** Every status that accepts `event` (e.g. the statuses a kill-switch park can hold). */
export const jobStatusesAccepting = jobMachine.statesAccepting;

/** How the job moves after one of its attempts failed, and the errorCode it records. */
export interface AttemptFailureOutcome {
  event: 'RETRYABLE_FAILURE' | 'TERMINAL_FAILURE';
  jobErrorCode: string;
}

/**
 * Maps a failed attempt to the job's next move: a retryable failure of attempt 1 schedules a
 * retry; a retryable failure of attempt 2 ends the job with ATTEMPTS_EXHAUSTED (the attempt row
 * keeps its own code); any terminal failure ends the job with that code.
 */
export function outcomeOfAttemptFailure(attemptNumber: number, errorCode: string): AttemptFailureOutcome {
  if (!isRetryableStagingError(errorCode)) return { event: 'TERMINAL_FAILURE', jobErrorCode: errorCode };
  return attemptNumber < MAX_ATTEMPTS_PER_JOB
    ? { event: 'RETRYABLE_FAILURE', jobErrorCode: errorCode }
    : { event: 'TERMINAL_FAILURE', jobErrorCode: 'ATTEMPTS_EXHAUSTED' };
}

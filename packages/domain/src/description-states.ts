import { JOB_STATUSES } from './staging-states';
import type { JobStatus } from './staging-states';
import { stateMachine } from './state-machine';
import type { TransitionTable } from './state-machine';

/**
 * What can happen to a DESCRIPTION job (ai_jobs of type DESCRIPTION share the status enum with
 * staging jobs but use only PENDING, PROCESSING, SUCCESS and FAILED).
 *
 * - WORKER_PICKED_UP: a delivery claims the job; a PROCESSING job whose run died is taken over.
 * - SUCCEEDED: the description and the job's result are written.
 * - TERMINAL_FAILURE: generation failed for good, or the payload or property is gone.
 */
export const DESCRIPTION_JOB_EVENTS = ['WORKER_PICKED_UP', 'SUCCEEDED', 'TERMINAL_FAILURE'] as const;
export type DescriptionJobEvent = (typeof DESCRIPTION_JOB_EVENTS)[number];

/** The description job state machine; a missing entry is a forbidden move. */
export const DESCRIPTION_JOB_TRANSITIONS: TransitionTable<JobStatus, DescriptionJobEvent> = {
  PENDING: { WORKER_PICKED_UP: 'PROCESSING', TERMINAL_FAILURE: 'FAILED' },
  PROCESSING: { WORKER_PICKED_UP: 'PROCESSING', SUCCEEDED: 'SUCCESS', TERMINAL_FAILURE: 'FAILED' },
  RETRYING: {},
  CANCEL_REQUESTED: {},
  SUCCESS: {},
  CANCELED: {},
  FAILED: {},
};

/** The description job's machine, for guards read off the table (descriptionMachine.fixedMove). */
export const descriptionMachine = stateMachine(JOB_STATUSES, DESCRIPTION_JOB_TRANSITIONS, 'description job');

/** The status `event` leads to from `from`, or null when the move is forbidden. */
export const nextDescriptionJobStatus = descriptionMachine.next;

/** The status `event` leads to from `from`; throws AppError CONFLICT when the table forbids the move. */
export const transitionDescriptionJob = descriptionMachine.transition;

/** Every status from which `event` leads to `to`, for the conditional updates of the use case. */
export const descriptionJobStatusesLeadingTo = descriptionMachine.statesLeadingTo;

/** Statuses a description job can still leave: the ones a queue repair re-adds a message for. */
export const OPEN_DESCRIPTION_JOB_STATUSES: readonly JobStatus[] = JOB_STATUSES.filter(
  (status) => Object.keys(DESCRIPTION_JOB_TRANSITIONS[status]).length > 0,
);

import { isOneOf } from './one-of';
import { stateMachine } from './state-machine';
import type { TransitionTable } from './state-machine';
import { isRetryableStagingError } from './staging-errors';

/** ai_provider_attempts.status; matches the database enum `AttemptStatus`. */
export const ATTEMPT_STATUSES = ['RESERVED', 'CREATING', 'ACTIVE', 'SUCCEEDED', 'FAILED', 'CANCELED', 'DISCARDED'] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

/** An attempt in one of these may still lead to (or already be) a paid prediction in flight. */
export const OPEN_ATTEMPT_STATUSES = ['RESERVED', 'CREATING', 'ACTIVE'] as const satisfies readonly AttemptStatus[];

/** An attempt in one of these has ended for good. */
export const ENDED_ATTEMPT_STATUSES = ['SUCCEEDED', 'FAILED', 'CANCELED', 'DISCARDED'] as const satisfies readonly AttemptStatus[];

/**
 * What can happen to an attempt.
 *
 * - CREATE_STARTED: about to call the provider (the row says "a purchase may be in flight").
 * - PREDICTION_PERSISTED: the prediction ID is stored (after creation or after recovering it).
 * - CREATE_REJECTED: creation ended without a prediction ID: refused (401/403/422), shown never
 *   made after a transport failure, given up as unconfirmable, or not repeated because the
 *   original photo is gone.
 * - PROVIDER_SUCCEEDED / PROVIDER_FAILED: the prediction reached a terminal provider status.
 * - CANCELED: canceled at the provider, or before anything was bought.
 * - DISCARDED: the provider finished but cancellation won; the output is thrown away. A CREATING
 *   attempt can be discarded too: the webhook receiver may have tied its prediction to it before
 *   the worker persisted the ID, and a cancel settles such an attempt as it finds it.
 * - ABANDONED: the job ended before this reserved attempt was bought (e.g. original missing).
 */
// prettier-ignore
export const ATTEMPT_EVENTS = [
  'CREATE_STARTED', 'PREDICTION_PERSISTED', 'CREATE_REJECTED', 'PROVIDER_SUCCEEDED',
  'PROVIDER_FAILED', 'CANCELED', 'DISCARDED', 'ABANDONED',
] as const;
export type AttemptEvent = (typeof ATTEMPT_EVENTS)[number];

/**
 * The attempt state machine. RESERVED → CREATING → ACTIVE → SUCCEEDED | FAILED | CANCELED |
 * DISCARDED, plus the exits that happen before a prediction exists: RESERVED → CANCELED | FAILED
 * and CREATING → FAILED | CANCELED, and CREATING → DISCARDED for a prediction only the webhook
 * receiver has tied to the attempt yet. There is no way back to RESERVED or CREATING: once
 * creation may have happened, only recovery of that same prediction (→ ACTIVE) or an ending is
 * allowed, which is what keeps a restart from buying twice.
 */
export const ATTEMPT_TRANSITIONS: TransitionTable<AttemptStatus, AttemptEvent> = {
  RESERVED: { CREATE_STARTED: 'CREATING', CANCELED: 'CANCELED', ABANDONED: 'FAILED' },
  CREATING: { PREDICTION_PERSISTED: 'ACTIVE', CREATE_REJECTED: 'FAILED', CANCELED: 'CANCELED', DISCARDED: 'DISCARDED' },
  ACTIVE: { PROVIDER_SUCCEEDED: 'SUCCEEDED', PROVIDER_FAILED: 'FAILED', CANCELED: 'CANCELED', DISCARDED: 'DISCARDED' },
  SUCCEEDED: {},
  FAILED: {},
  CANCELED: {},
  DISCARDED: {},
};

/** True while the attempt is RESERVED, CREATING or ACTIVE. */
export function isOpenAttemptStatus(status: AttemptStatus): boolean {
  return isOneOf(OPEN_ATTEMPT_STATUSES, status);
}

/** The provider attempt's machine, for guards read off the table (attemptMachine.fixedMove). */
export const attemptMachine = stateMachine(ATTEMPT_STATUSES, ATTEMPT_TRANSITIONS, 'provider attempt');

/** The status `event` leads to from `from`, or null when the move is forbidden. */
export const nextAttemptStatus = attemptMachine.next;

/** The status `event` leads to from `from`; throws AppError CONFLICT when the table forbids the move. */
export const transitionAttempt = attemptMachine.transition;

/** Every status from which `event` leads to `to` (for conditional updates). */
export const attemptStatusesLeadingTo = attemptMachine.statesLeadingTo;

/** Every status that accepts `event`, whatever it leads to. */
export const attemptStatusesAccepting = attemptMachine.statesAccepting;

/** The highest attempt number a job may ever use (docs/system.md 8). */
export const MAX_ATTEMPTS_PER_JOB = 2;

/** The fields of an existing attempt row the reservation rule looks at. */
export interface AttemptSummary {
  attemptNumber: number;
  status: AttemptStatus;
  errorCode: string | null;
}

/** Outcome of {@link decideAttemptReservation}. */
export type AttemptReservation =
  | { allowed: true; attemptNumber: 1 | 2 }
  | { allowed: false; reason: 'ATTEMPT_OPEN' | 'ATTEMPTS_EXHAUSTED' | 'NOT_RETRYABLE' };

/**
 * Which attempt, if any, a job may reserve next given its existing attempt rows:
 *
 * - never while an attempt is RESERVED, CREATING or ACTIVE (ATTEMPT_OPEN): that attempt must be
 *   resumed or recovered, so a restart never buys a second prediction;
 * - attempt 1 when there is none;
 * - attempt 2 only when attempt 1 ended FAILED with a retryable error code;
 * - nothing after attempt 2 (ATTEMPTS_EXHAUSTED) or after a non-retryable ending (NOT_RETRYABLE).
 */
export function decideAttemptReservation(attempts: readonly AttemptSummary[]): AttemptReservation {
  if (attempts.some((a) => isOpenAttemptStatus(a.status))) return { allowed: false, reason: 'ATTEMPT_OPEN' };
  const [first] = attempts;
  if (first === undefined) return { allowed: true, attemptNumber: 1 };
  if (attempts.length >= MAX_ATTEMPTS_PER_JOB || attempts.some((a) => a.attemptNumber !== 1)) {
    return { allowed: false, reason: 'ATTEMPTS_EXHAUSTED' };
  }
  return first.status === 'FAILED' && isRetryableStagingError(first.errorCode)
    ? { allowed: true, attemptNumber: 2 }
    : { allowed: false, reason: 'NOT_RETRYABLE' };
}

/** True when {@link decideAttemptReservation} allows a new attempt. */
export function canReserveAttempt(attempts: readonly AttemptSummary[]): boolean {
  return decideAttemptReservation(attempts).allowed;
}

// How a fault bends the course of a prediction: when it starts and finishes on its own (if at
// all), and what it ends as. The lifecycle runs the course; this only decides it.
import { PERMANENT_FAILURE_ERROR, RETRYABLE_FAILURE_ERROR } from './faults';
import type { FaultSpec } from './faults';

/** Delays from creation; null where the step never comes on its own. */
export interface CoursePlan {
  startAfterMs: number | null;
  abortBeforeStartAfterMs: number | null;
  finishAfterMs: number | null;
}

export function planCourse(fault: FaultSpec | null, delays: { completionDelayMs: number; slowCompletionDelayMs: number }): CoursePlan {
  const delay = fault?.delayMs ?? (fault?.name === 'slow' ? delays.slowCompletionDelayMs : delays.completionDelayMs);
  const name = fault?.name;
  // stuck_starting never gets a worker: only its deadline (aborted) or a cancel ends it.
  // aborted_before_start is dropped from the queue at `delay`, as a passed deadline does.
  return {
    startAfterMs: name === 'aborted_before_start' || name === 'stuck_starting' ? null : Math.min(50, Math.floor(delay / 4)),
    abortBeforeStartAfterMs: name === 'aborted_before_start' ? delay : null,
    finishAfterMs: name !== 'never_complete' && name !== 'stuck_starting' && name !== 'aborted_before_start' ? delay : null,
  };
}

/** What a finish without an override ends as. */
export function faultOutcome(fault: FaultSpec | null): 'failed' | 'succeeded' {
  return fault?.name === 'fail' || fault?.name === 'fail_permanent' ? 'failed' : 'succeeded';
}

/** The error of a failure that no failed preparation or override explains. */
export function faultFailureError(fault: FaultSpec | null): string {
  return fault?.name === 'fail_permanent' ? PERMANENT_FAILURE_ERROR : RETRYABLE_FAILURE_ERROR;
}

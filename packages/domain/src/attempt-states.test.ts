import fc from 'fast-check';
import {
  ATTEMPT_EVENTS,
  ATTEMPT_STATUSES,
  ATTEMPT_TRANSITIONS,
  ENDED_ATTEMPT_STATUSES,
  OPEN_ATTEMPT_STATUSES,
  attemptStatusesAccepting,
  attemptStatusesLeadingTo,
  canReserveAttempt,
  decideAttemptReservation,
  nextAttemptStatus,
  transitionAttempt,
} from './attempt-states';
import type { AttemptEvent, AttemptStatus, AttemptSummary } from './attempt-states';
import { itFollowsTheExpectedTable } from './transition-table-cases';
import { STAGING_ERROR_CODES, isRetryableStagingError } from './staging-errors';

const allowed: Array<[AttemptStatus, AttemptEvent, AttemptStatus]> = [
  ['RESERVED', 'CREATE_STARTED', 'CREATING'],
  ['RESERVED', 'CANCELED', 'CANCELED'],
  ['RESERVED', 'ABANDONED', 'FAILED'],
  ['CREATING', 'PREDICTION_PERSISTED', 'ACTIVE'],
  ['CREATING', 'CREATE_REJECTED', 'FAILED'],
  ['CREATING', 'CANCELED', 'CANCELED'],
  ['CREATING', 'DISCARDED', 'DISCARDED'],
  ['ACTIVE', 'PROVIDER_SUCCEEDED', 'SUCCEEDED'],
  ['ACTIVE', 'PROVIDER_FAILED', 'FAILED'],
  ['ACTIVE', 'CANCELED', 'CANCELED'],
  ['ACTIVE', 'DISCARDED', 'DISCARDED'],
];

const everyPair = ATTEMPT_STATUSES.flatMap((from) => ATTEMPT_EVENTS.map((event) => [from, event] as const));

describe('attempt state machine', () => {
  it('splits the statuses into open and ended', () => {
    expect([...OPEN_ATTEMPT_STATUSES, ...ENDED_ATTEMPT_STATUSES].sort()).toEqual([...ATTEMPT_STATUSES].sort());
    for (const status of ENDED_ATTEMPT_STATUSES) expect(ATTEMPT_TRANSITIONS[status]).toEqual({});
  });

  itFollowsTheExpectedTable({
    states: ATTEMPT_STATUSES,
    events: ATTEMPT_EVENTS,
    table: ATTEMPT_TRANSITIONS,
    machine: { next: nextAttemptStatus, transition: transitionAttempt },
    allowed,
  });

  it('never leads back to RESERVED or CREATING once creation may have happened', () => {
    for (const [from, event] of everyPair) {
      const to = nextAttemptStatus(from, event);
      if (from !== 'RESERVED') expect(to === 'RESERVED' || to === 'CREATING').toBe(false);
    }
    expect(attemptStatusesLeadingTo('CANCELED', 'CANCELED')).toEqual(['RESERVED', 'CREATING', 'ACTIVE']);
  });

  it('names the statuses that accept an event, whatever it leads to', () => {
    expect(attemptStatusesAccepting('PREDICTION_PERSISTED')).toEqual(['CREATING']);
    expect(attemptStatusesAccepting('CANCELED')).toEqual(['RESERVED', 'CREATING', 'ACTIVE']);
  });
});

function attempt(attemptNumber: number, status: AttemptStatus, errorCode: string | null = null): AttemptSummary {
  return { attemptNumber, status, errorCode };
}

describe('attempt reservation', () => {
  it('reserves attempt 1 for a job without attempts', () => {
    expect(decideAttemptReservation([])).toEqual({ allowed: true, attemptNumber: 1 });
  });

  it.each(STAGING_ERROR_CODES)('after attempt 1 FAILED with %s', (code) => {
    const decision = decideAttemptReservation([attempt(1, 'FAILED', code)]);
    expect(decision).toEqual(
      isRetryableStagingError(code) ? { allowed: true, attemptNumber: 2 } : { allowed: false, reason: 'NOT_RETRYABLE' },
    );
  });

  it('never reserves while an attempt is open, so a restart cannot buy again', () => {
    for (const status of OPEN_ATTEMPT_STATUSES) {
      expect(decideAttemptReservation([attempt(1, status)])).toEqual({ allowed: false, reason: 'ATTEMPT_OPEN' });
      expect(
        decideAttemptReservation([attempt(1, 'FAILED', 'PROVIDER_FAILED'), attempt(2, status)]),
      ).toEqual({ allowed: false, reason: 'ATTEMPT_OPEN' });
    }
  });

  it.each(['SUCCEEDED', 'CANCELED', 'DISCARDED'] as const)('does not retry after attempt 1 ended %s', (status) => {
    expect(decideAttemptReservation([attempt(1, status, 'PROVIDER_FAILED')])).toEqual({ allowed: false, reason: 'NOT_RETRYABLE' });
  });

  it('refuses a failure without a code and a third attempt', () => {
    expect(canReserveAttempt([attempt(1, 'FAILED', null)])).toBe(false);
    expect(
      decideAttemptReservation([attempt(1, 'FAILED', 'PROVIDER_FAILED'), attempt(2, 'FAILED', 'PROVIDER_FAILED')]),
    ).toEqual({ allowed: false, reason: 'ATTEMPTS_EXHAUSTED' });
  });

  it('only ever answers attempt numbers 1 and 2, never with an open attempt present', () => {
    const arbAttempt = fc.record({
      attemptNumber: fc.integer({ min: 1, max: 3 }),
      status: fc.constantFrom(...ATTEMPT_STATUSES),
      errorCode: fc.option(fc.constantFrom(...STAGING_ERROR_CODES, 'UNKNOWN'), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(arbAttempt, { maxLength: 3 }), (attempts) => {
        const decision = decideAttemptReservation(attempts);
        if (!decision.allowed) return;
        expect([1, 2]).toContain(decision.attemptNumber);
        expect(attempts.every((a) => !(OPEN_ATTEMPT_STATUSES as readonly string[]).includes(a.status))).toBe(true);
        expect(decision.attemptNumber).toBe(attempts.length + 1);
        if (decision.attemptNumber === 2) {
          expect(attempts[0]).toMatchObject({ attemptNumber: 1, status: 'FAILED' });
          expect(isRetryableStagingError(attempts[0]!.errorCode)).toBe(true);
        }
      }),
    );
  });
});

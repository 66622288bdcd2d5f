import { ATTEMPT_STATUSES, attemptStatusesLeadingTo, nextAttemptStatus } from '@staging/domain/attempt-states';
import { JOB_STATUSES, jobStatusesLeadingTo, nextJobStatus } from '@staging/domain/staging-states';
import { fixedMoveOf } from './guard-sets';

const jobs = { states: JOB_STATUSES, next: nextJobStatus, statesLeadingTo: jobStatusesLeadingTo };
const attempts = { states: ATTEMPT_STATUSES, next: nextAttemptStatus, statesLeadingTo: attemptStatusesLeadingTo };

describe('fixedMoveOf', () => {
  it('reads the target and every status that leads there off the table', () => {
    expect(fixedMoveOf(jobs, 'WORKER_PICKED_UP')).toEqual({ to: 'PROCESSING', from: ['PENDING'] });
    expect(fixedMoveOf(jobs, 'TERMINAL_FAILURE')).toEqual({ to: 'FAILED', from: ['PENDING', 'PROCESSING', 'RETRYING'] });
    expect(fixedMoveOf(attempts, 'CANCELED')).toEqual({ to: 'CANCELED', from: ['RESERVED', 'CREATING', 'ACTIVE'] });
  });

  it('refuses an event whose target depends on where the row stands', () => {
    expect(() => fixedMoveOf(jobs, 'CANCEL')).toThrow('CANCEL leads to CANCELED or CANCEL_REQUESTED');
    expect(() => fixedMoveOf(jobs, 'PROVIDER_DISABLED')).toThrow('PROVIDER_DISABLED leads to PENDING or PROCESSING or RETRYING');
  });

  it('refuses an event no status accepts', () => {
    const nothing = { states: JOB_STATUSES, next: () => null, statesLeadingTo: () => [] };
    expect(() => fixedMoveOf(nothing, 'SUCCEEDED')).toThrow('SUCCEEDED leads to nothing');
  });
});

import {
  DESCRIPTION_JOB_EVENTS,
  DESCRIPTION_JOB_TRANSITIONS,
  OPEN_DESCRIPTION_JOB_STATUSES,
  descriptionJobStatusesLeadingTo,
  nextDescriptionJobStatus,
  transitionDescriptionJob,
} from './description-states';
import type { DescriptionJobEvent } from './description-states';
import { JOB_STATUSES } from './staging-states';
import type { JobStatus } from './staging-states';
import { itFollowsTheExpectedTable } from './transition-table-cases';

const allowed: Array<[JobStatus, DescriptionJobEvent, JobStatus]> = [
  ['PENDING', 'WORKER_PICKED_UP', 'PROCESSING'],
  ['PENDING', 'TERMINAL_FAILURE', 'FAILED'],
  ['PROCESSING', 'WORKER_PICKED_UP', 'PROCESSING'],
  ['PROCESSING', 'SUCCEEDED', 'SUCCESS'],
  ['PROCESSING', 'TERMINAL_FAILURE', 'FAILED'],
];

describe('description job state machine', () => {
  itFollowsTheExpectedTable({
    states: JOB_STATUSES,
    events: DESCRIPTION_JOB_EVENTS,
    table: DESCRIPTION_JOB_TRANSITIONS,
    machine: { next: nextDescriptionJobStatus, transition: transitionDescriptionJob },
    allowed,
  });

  it('derives the guard sets of the use case and the open statuses of the queue repair', () => {
    expect(descriptionJobStatusesLeadingTo('WORKER_PICKED_UP', 'PROCESSING')).toEqual(['PENDING', 'PROCESSING']);
    expect(descriptionJobStatusesLeadingTo('SUCCEEDED', 'SUCCESS')).toEqual(['PROCESSING']);
    expect(descriptionJobStatusesLeadingTo('TERMINAL_FAILURE', 'FAILED')).toEqual(['PENDING', 'PROCESSING']);
    expect(OPEN_DESCRIPTION_JOB_STATUSES).toEqual(['PENDING', 'PROCESSING']);
  });
});

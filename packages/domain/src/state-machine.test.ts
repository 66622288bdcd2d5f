import { attemptMachine } from './attempt-states';
import { stateMachine } from './state-machine';
import { JOB_STATUSES, jobMachine } from './staging-states';

describe('fixedMove', () => {
  it('reads the target and every status that leads there off the table', () => {
    expect(jobMachine.fixedMove('WORKER_PICKED_UP')).toEqual({ to: 'PROCESSING', from: ['PENDING'] });
    expect(jobMachine.fixedMove('TERMINAL_FAILURE')).toEqual({ to: 'FAILED', from: ['PENDING', 'PROCESSING', 'RETRYING'] });
    expect(attemptMachine.fixedMove('CANCELED')).toEqual({ to: 'CANCELED', from: ['RESERVED', 'CREATING', 'ACTIVE'] });
  });

  it('works a guard out once per event and hands the same one out after', () => {
    expect(jobMachine.fixedMove('SUCCEEDED')).toBe(jobMachine.fixedMove('SUCCEEDED'));
  });

  it('refuses an event whose target depends on where the row stands', () => {
    expect(() => jobMachine.fixedMove('CANCEL')).toThrow('CANCEL leads to CANCELED or CANCEL_REQUESTED');
    expect(() => jobMachine.fixedMove('PROVIDER_DISABLED')).toThrow('PROVIDER_DISABLED leads to PENDING or PROCESSING or RETRYING');
  });

  it('refuses an event no status accepts', () => {
    const empty = Object.fromEntries(JOB_STATUSES.map((status) => [status, {}])) as Record<(typeof JOB_STATUSES)[number], object>;
    const nothing = stateMachine<(typeof JOB_STATUSES)[number], 'SUCCEEDED'>(JOB_STATUSES, empty, 'test job');
    expect(() => nothing.fixedMove('SUCCEEDED')).toThrow('SUCCEEDED leads to nothing');
  });
});

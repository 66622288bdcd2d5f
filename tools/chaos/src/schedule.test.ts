import { createRandom } from './random';
import { buildSchedule, FAULT_MIX } from './schedule';
import type { ChaosEvent } from './schedule';

const options = { kills: 20, jobs: 20, workers: 2 };
const count = (events: ChaosEvent[], kind: ChaosEvent['kind']) => events.filter((e) => e.kind === kind).length;

describe('buildSchedule', () => {
  it('replays the same schedule for the same seed and another one for another seed', () => {
    expect(buildSchedule(options, createRandom(7))).toEqual(buildSchedule(options, createRandom(7)));
    expect(buildSchedule(options, createRandom(8))).not.toEqual(buildSchedule(options, createRandom(7)));
  });

  it('plans every kill, submits every job and includes each disturbance at least once', () => {
    const events = buildSchedule(options, createRandom(3));
    expect(count(events, 'kill')).toBe(20);
    expect(events.filter((e) => e.kind === 'submit').reduce((sum, e) => sum + e.count, 0)).toBe(20);
    expect(count(events, 'flushall')).toBeGreaterThanOrEqual(1);
    expect(count(events, 'terminate-backends')).toBeGreaterThanOrEqual(2);
    expect(count(events, 'kill-switch-off')).toBeGreaterThanOrEqual(1);
    expect(count(events, 'cancel')).toBeGreaterThanOrEqual(1);
    expect(events.every((e) => e.kind !== 'kill' || (e.worker >= 0 && e.worker < options.workers))).toBe(true);
  });

  it('is in time order, starting with a submission', () => {
    const events = buildSchedule(options, createRandom(5));
    expect(events.map((e) => e.atMs)).toEqual([...events.map((e) => e.atMs)].sort((a, b) => a - b));
    expect(events[0]).toMatchObject({ kind: 'submit', atMs: 0 });
  });

  it('cancels only jobs submitted before the cancel', () => {
    const events = buildSchedule({ kills: 200, jobs: 200, workers: 3 }, createRandom(11));
    let submitted = 0;
    for (const event of events) {
      if (event.kind === 'submit') submitted += event.count;
      if (event.kind === 'cancel') expect(event.jobIndex).toBeLessThan(Math.max(1, submitted));
    }
  });

  it('scripts every fault of the mix once the run has as many fault slots', () => {
    const jobs = Math.ceil(FAULT_MIX.length / 0.6);
    const events = buildSchedule({ kills: 20, jobs, workers: 2 }, createRandom(13));
    const scripted = new Set(events.flatMap((e) => (e.kind === 'fault' ? [JSON.stringify(e.fault)] : [])));
    expect([...scripted].sort()).toEqual(FAULT_MIX.map((fault) => JSON.stringify(fault)).sort());
  });
});

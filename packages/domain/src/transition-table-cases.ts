import { AppError } from './errors';
import type { StateMachine, TransitionTable } from './state-machine';

/**
 * Jest cases that hold a machine to its complete expected table, written out cell by cell in the
 * test: every listed cell moves as listed, every other (state, event) pair is refused, and the
 * table has no cell the list does not name. Call inside a `describe`.
 */
export function itFollowsTheExpectedTable<S extends string, E extends string>(spec: {
  states: readonly S[];
  events: readonly E[];
  table: TransitionTable<S, E>;
  machine: Pick<StateMachine<S, E>, 'next' | 'transition'>;
  allowed: ReadonlyArray<readonly [S, E, S]>;
}): void {
  const everyPair = spec.states.flatMap((from) => spec.events.map((event) => [from, event] as const));

  it.each(everyPair)('%s + %s follows the table', (from, event) => {
    const row = spec.allowed.find(([f, e]) => f === from && e === event);
    if (row) {
      expect(spec.machine.transition(from, event)).toBe(row[2]);
    } else {
      expect(spec.machine.next(from, event)).toBeNull();
      expect(() => spec.machine.transition(from, event)).toThrow(AppError);
    }
  });

  it('has no cells beyond the expected table', () => {
    const cells = spec.states.flatMap((from) => Object.keys(spec.table[from]));
    expect(cells).toHaveLength(spec.allowed.length);
  });
}

import { AppError } from './errors';

/**
 * For each state, the events it accepts and the state each one leads to. A missing entry is a
 * forbidden move.
 */
export type TransitionTable<S extends string, E extends string> = Readonly<Record<S, Readonly<Partial<Record<E, S>>>>>;

/** What the use cases ask of a transition table; the job and attempt machines share it. */
export interface StateMachine<S extends string, E extends string> {
  /** The state `event` leads to from `from`, or null when the move is forbidden. */
  next(from: S, event: E): S | null;
  /**
   * The state `event` leads to from `from`.
   *
   * @throws AppError CONFLICT when the table forbids the move.
   */
  transition(from: S, event: E): S;
  /**
   * Every state from which `event` leads to `to`. Use cases build their conditional
   * `UPDATE … WHERE status IN (…)` from this, so a race with another writer can only make the
   * update match nothing, never apply a move the table forbids.
   */
  statesLeadingTo(event: E, to: S): S[];
  /** Every state that accepts `event`, whatever it leads to. */
  statesAccepting(event: E): S[];
}

/**
 * The machine of `table` over `states`. `subject` names what moves in the CONFLICT message
 * ("A PENDING staging job does not accept …").
 */
export function stateMachine<S extends string, E extends string>(
  states: readonly S[],
  table: TransitionTable<S, E>,
  subject: string,
): StateMachine<S, E> {
  const next = (from: S, event: E): S | null => table[from][event] ?? null;
  return {
    next,
    transition(from, event) {
      const to = next(from, event);
      if (to === null) throw new AppError('CONFLICT', `A ${from} ${subject} does not accept ${event}.`);
      return to;
    },
    statesLeadingTo: (event, to) => states.filter((from) => table[from][event] === to),
    statesAccepting: (event) => states.filter((from) => table[from][event] !== undefined),
  };
}

import { AppError } from './errors';

/**
 * For each state, the events it accepts and the state each one leads to. A missing entry is a
 * forbidden move.
 */
export type TransitionTable<S extends string, E extends string> = Readonly<Record<S, Readonly<Partial<Record<E, S>>>>>;

/** A move whose target does not depend on where it starts. */
export interface FixedMove<S extends string> {
  readonly to: S;
  readonly from: readonly S[];
}

/** What the use cases ask of a transition table; the job and attempt machines share it. */
export interface StateMachine<S extends string, E extends string> {
  readonly states: readonly S[];
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
  /**
   * The one state `event` leads to from anywhere, and every state it leads there from: the guard
   * of a conditional update that does not need the status the caller read. Throws for an event
   * whose target depends on the start (a CANCEL that ends or only requests): those moves need
   * the status the row was read in.
   */
  fixedMove(event: E): FixedMove<S>;
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
  const statesLeadingTo = (event: E, to: S) => states.filter((from) => table[from][event] === to);
  // The table never changes, so each event's guard is worked out once, on first use.
  const fixedMoves = new Map<E, FixedMove<S>>();
  const fixedMoveOf = (event: E): FixedMove<S> => {
    const targets = [...new Set(states.map((from) => next(from, event)).filter((to) => to !== null))];
    const [to] = targets;
    if (to === undefined || targets.length > 1) {
      throw new Error(`${event} leads to ${targets.join(' or ') || 'nothing'}; move from the status the row was read in`);
    }
    return { to, from: statesLeadingTo(event, to) };
  };
  return {
    states,
    next,
    transition(from, event) {
      const to = next(from, event);
      if (to === null) throw new AppError('CONFLICT', `A ${from} ${subject} does not accept ${event}.`);
      return to;
    },
    statesLeadingTo,
    statesAccepting: (event) => states.filter((from) => table[from][event] !== undefined),
    fixedMove(event) {
      let move = fixedMoves.get(event);
      if (move === undefined) {
        move = fixedMoveOf(event);
        fixedMoves.set(event, move);
      }
      return move;
    },
  };
}

/**
 * The guard of a conditional update, read off a transition table: the status an event leads to
 * and the statuses it may start from. Nothing here knows a status by name, so a new status or
 * edge in packages/domain changes every guard built from it.
 */

/** A move whose target does not depend on where it starts. */
interface FixedMove<S extends string> {
  to: S;
  from: S[];
}

/**
 * The one status `event` leads to from anywhere, and every status it leads there from. Throws
 * for an event whose target depends on the status it starts from (CANCEL, PROVIDER_DISABLED):
 * those moves need the status the caller read.
 */
export function fixedMoveOf<S extends string, E extends string>(
  machine: { states: readonly S[]; next(from: S, event: E): S | null; statesLeadingTo(event: E, to: S): S[] },
  event: E,
): FixedMove<S> {
  const targets = [...new Set(machine.states.map((from) => machine.next(from, event)).filter((to) => to !== null))];
  const [to] = targets;
  if (to === undefined || targets.length > 1) {
    throw new Error(`${event} leads to ${targets.join(' or ') || 'nothing'}; move from the status the row was read in`);
  }
  return { to, from: machine.statesLeadingTo(event, to) };
}

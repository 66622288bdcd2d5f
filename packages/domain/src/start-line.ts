/**
 * The line of jobs waiting for a paid start (docs/decisions/staging.md "A fair share of the start
 * limit"). Starts are paced one interval apart, so a limit of N per window never bursts; whose
 * turn it is follows start-time fair queueing per submitting agent: a job joins with the tag
 * max(line's virtual time, the agent's next tag), and the lowest tag starts next (ties in join
 * order). An agent with one photo waiting thus goes before the tail of another agent's batch,
 * and an agent alone in the line starts as fast as the pace allows.
 */

/** ai_jobs.phase of a job that waits for its turn and a start slot; nothing was bought yet. */
export const WAITING_FOR_START_SLOT = 'WAITING_FOR_START_SLOT';

/**
 * Log events after which a job joins the start line anew: its queue message, lost with Redis, was
 * put back by the repair; or recovery ruled out the purchase of a CREATING attempt, so the slot it
 * was granted went with a run that never reached the provider, and it asks for another.
 */
export const LINE_REJOIN_EVENTS = {
  queueRepaired: 'ai_room_staging.queue_repaired',
  createAgain: 'ai_room_staging.create_again',
} as const;

/** The spacing of paid starts: `limit` per `windowMs`, evenly. */
export function startIntervalMs(limit: number, windowMs: number): number {
  return Math.ceil(windowMs / Math.max(1, limit));
}

/** Where a waiting job stands: 1 = next to start. */
export interface PlaceInLine {
  position: number;
  /** When it should start if nothing ahead of it leaves: the next slot plus one interval per job ahead. */
  expectedStartAt: Date;
}

export function placeInLine(input: { rank: number; nextSlotAtMs: number; intervalMs: number }): PlaceInLine {
  return {
    position: input.rank + 1,
    expectedStartAt: new Date(input.nextSlotAtMs + input.rank * input.intervalMs),
  };
}

/** Whom fairness counts: the agent who asked for the job, or one shared party for jobs nobody asked for. */
export function fairShareParty(requestedByUserId: string | null): string {
  return requestedByUserId ?? 'unattributed';
}

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

export interface LineEntry {
  jobId: string;
  party: string;
  /** When the job asked for a start (joined the line). */
  joinedAtMs: number;
}

/**
 * The fair order of a set of waiting jobs with no start in between: the order the line grants
 * them in when they all wait at once. Used to check a run's starts (tests, chaos audit): each
 * party's k-th job gets tag k (its own jobs in join order); lower tags first, ties by join time.
 */
export function fairOrder(entries: readonly LineEntry[]): string[] {
  const seen = new Map<string, number>();
  const tagged = [...entries]
    .sort((a, b) => a.joinedAtMs - b.joinedAtMs)
    .map((entry) => {
      const tag = seen.get(entry.party) ?? 0;
      seen.set(entry.party, tag + 1);
      return { ...entry, tag };
    });
  tagged.sort((a, b) => a.tag - b.tag || a.joinedAtMs - b.joinedAtMs);
  return tagged.map((entry) => entry.jobId);
}

import type { StartLineSummary } from '@staging/contracts/staging';
import { Prisma } from '@staging/db/client';
import { WAITING_FOR_START_SLOT } from '@staging/domain/start-line';
import type { PlaceInLine } from '@staging/domain/start-line';
import type { Actor } from '../access/property-access';
import type { JobReadDeps } from './staging-deps';
import { paidStartLimiterKey, readPlacesInLine } from './paid-start-limiter';

/** How many waiting jobs the badge counts before it says "at least". */
export const START_LINE_COUNT_CAP = 99;

// Inlined, not a parameter: a generic plan cannot prove a parameter matches the index predicate.
const WAITING_PHASE_LITERAL = Prisma.raw(`'${WAITING_FOR_START_SLOT}'`);

/** The places in line of waiting jobs; none when Redis cannot be read, so the answer still comes. */
export async function placesInLineOf(deps: JobReadDeps, jobIds: readonly string[]): Promise<Map<string, PlaceInLine>> {
  if (jobIds.length === 0) return new Map();
  try {
    return await readPlacesInLine(deps.redis, paidStartLimiterKey(deps.stagingQueue.name), jobIds);
  } catch (error) {
    deps.logger.warn({ event: 'start_line.unreadable', err: error }, 'could not read the start line; jobs are listed without their place');
    return new Map();
  }
}

/**
 * ai.startLine: the caller's photos waiting for a start slot, for the navigation badge. Reads
 * ai_jobs_waiting_for_start_idx, whose predicate is repeated here as literals so every plan
 * (generic ones too) can use it; it holds only the jobs waiting now, so the read stays as small
 * as the line however long the history grows.
 */
export async function summarizeStartLine(deps: JobReadDeps, actor: Actor): Promise<StartLineSummary> {
  const rows = await deps.db.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "ai_jobs"
    WHERE "requestedByUserId" = ${actor.id}
      AND "phase" = ${WAITING_PHASE_LITERAL} AND "status" IN ('PENDING', 'PROCESSING', 'RETRYING')
    LIMIT ${START_LINE_COUNT_CAP + 1}`;
  const places = [...(await placesInLineOf(deps, rows.map((row) => row.id))).values()];
  const next = places.reduce<PlaceInLine | null>((first, place) => (first === null || place.position < first.position ? place : first), null);
  return {
    waiting: Math.min(rows.length, START_LINE_COUNT_CAP),
    isLowerBound: rows.length > START_LINE_COUNT_CAP,
    next: next === null ? null : { position: next.position, expectedStartAt: next.expectedStartAt.toISOString() },
  };
}

/**
 * The legacy bridge (docs/system.md 9.3): for one release the queue `ai<QUEUE_SUFFIX>` keeps carrying v1
 * `stage-room` messages, and the worker materializes each into a v2 staging job through the same
 * submission use case as web and api (submitStaging), with the worker's own producer values.
 * The message shape is documented in docs/operations.md ("Legacy stage-room messages").
 */
import type { StagingSubmissionItem } from '@staging/contracts/staging';
import { Prisma } from '@staging/db/client';
import { STAGING_DISPOSITIONS } from '@staging/domain/dispositions';
import { AppError, isAppError } from '@staging/domain/errors';
import { isRoomType } from '@staging/domain/room-types';
import type { RoomType } from '@staging/domain/room-types';
import { resolveSubmittedStyle } from '@staging/domain/styles';
import { z } from 'zod';
import type { AiQueue } from '../description/ai-queue';
import { buildMessage, defineQueueContract } from '../queue-contract';
import { KEEP_FAILED_FOR_A_WEEK, retryWithBackoff } from '../queue-messages';
import type { StagingProducerDeps } from '../staging/staging-deps';
import { submitStaging } from '../staging/submit-staging';

/**
 * A v1 `stage-room` message. v1 clients typed the style and the room type as free text, so both
 * are strings here; unknown keys are kept (v1 producers differ slightly) but never used.
 */
export const ZLegacyStageRoomMessage = z.looseObject({
  /** The original photo (property_images.id). */
  imageId: z.string().min(1).max(100),
  /** The style as the v1 client sent it: a legacy alias ("Scandi"), a canonical name or anything. */
  style: z.string().min(1).max(200),
  /** Free text ("living room", "TV room") or a canonical room type; absent in older v1 clients. */
  roomType: z.string().max(100).nullish(),
  /** The agent who asked; authorization is checked for this user as for any submission. */
  requestedByUserId: z.string().min(1).max(100),
  /** When the v1 client submitted, ISO 8601; kept for the audit only. */
  submittedAt: z.iso.datetime({ offset: true }),
  /** v1 ai_jobs row of the request, when the v1 producer wrote one; kept for the audit only. */
  legacyJobId: z.string().max(100).nullish(),
});

export type TLegacyStageRoomMessage = z.infer<typeof ZLegacyStageRoomMessage>;

/**
 * v1 staging requests on `ai<QUEUE_SUFFIX>`. The options are those v1 producers used and tests use:
 * a few retries for transport trouble; failed messages stay a week in the dashboard for inspection.
 */
export const LEGACY_STAGE_ROOM_MESSAGE = defineQueueContract({
  queue: 'ai',
  jobName: 'stage-room',
  schema: ZLegacyStageRoomMessage,
  options: {
    ...retryWithBackoff(3, 1_000),
    removeOnComplete: { age: 24 * 3600, count: 1_000 },
    removeOnFail: KEEP_FAILED_FOR_A_WEEK,
  },
});

/** What a v1 producer does; used by tests and by the operations runbook's smoke check. */
export async function enqueueLegacyStageRoomMessage(
  queue: AiQueue,
  message: TLegacyStageRoomMessage,
): Promise<string> {
  const data = buildMessage(LEGACY_STAGE_ROOM_MESSAGE, message);
  const job = await queue.add(LEGACY_STAGE_ROOM_MESSAGE.jobName, data, LEGACY_STAGE_ROOM_MESSAGE.options);
  return job.id ?? '';
}

// v1 room types were typed by hand; these are the spellings seen in v1 data and clients. A TV room
// stays TV_ROOM (docs/system.md 1.2): it is never folded into the living room.
const LEGACY_ROOM_TYPES: Readonly<Record<string, RoomType>> = {
  bedroom: 'BEDROOM',
  'master bedroom': 'BEDROOM',
  'living room': 'LIVING_ROOM',
  livingroom: 'LIVING_ROOM',
  lounge: 'LIVING_ROOM',
  'dining room': 'DINING_ROOM',
  diningroom: 'DINING_ROOM',
  kitchen: 'KITCHEN',
  bathroom: 'BATHROOM',
  office: 'OFFICE',
  'home office': 'OFFICE',
  study: 'OFFICE',
  'tv room': 'TV_ROOM',
  'media room': 'TV_ROOM',
  'tv/media room': 'TV_ROOM',
};

/** Canonical room type of a v1 room-type string, or null when it names none. */
export function normalizeLegacyRoomType(value: string): RoomType | null {
  const trimmed = value.trim();
  if (isRoomType(trimmed)) return trimmed;
  const key = trimmed.toLowerCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ');
  return Object.hasOwn(LEGACY_ROOM_TYPES, key) ? (LEGACY_ROOM_TYPES[key] ?? null) : null;
}

/** The producer deps of the bridge: the worker has a sunset only when it is configured. */
export interface LegacyBridgeDeps extends Omit<StagingProducerDeps, 'staging'> {
  staging: Omit<StagingProducerDeps['staging'], 'legacyAliasSunsetAt'> & {
    /** Null when the worker has no AI_STAGING_LEGACY_ALIAS_SUNSET_AT: aliases are refused then. */
    legacyAliasSunsetAt: Date | null;
  };
}

export type LegacyMaterialization =
  | { kind: 'materialized'; item: StagingSubmissionItem }
  /** Not retryable: the message can never become a job (reason is an AppError code). */
  | { kind: 'rejected'; code: string; message: string }
  /** The kill switch is off: no job may be created now (docs/system.md 7); try again later. */
  | { kind: 'deferred' };

/**
 * Materializes one v1 message into a v2 staging job.
 *
 * - the kill switch off → deferred (no row written, docs/system.md 7);
 * - the style goes through the same rule as every producer: canonical names always, aliases
 *   until the sunset instant inclusive, `no-furniture` never;
 * - the room type is the message's (normalized) or else the one persisted on the original;
 * - the requesting agent must still be allowed to manage the property (same NOT_FOUND as a
 *   producer gives);
 * - submittedStyle/legacyStyle/legacyMetadata are written by submitStaging; the bridge adds a
 *   `bridge` entry to legacyMetadata so bridged jobs can be told apart later.
 *
 * Other errors (database, queue) are thrown for the caller to retry.
 */
export async function materializeLegacyStagingMessage(
  deps: LegacyBridgeDeps,
  message: TLegacyStageRoomMessage,
  context: { queueJobId: string | null },
): Promise<LegacyMaterialization> {
  if (deps.staging.enabled !== true) return { kind: 'deferred' };
  const now = deps.clock.now();
  try {
    // Checked before anything is read so a retired alias is refused the same way with or without
    // a configured sunset (submitStaging itself needs a Date).
    resolveSubmittedStyle(message.style, { now, sunsetAt: deps.staging.legacyAliasSunsetAt });
    const roomType = await resolveRoomType(deps, message);
    const user = await deps.db.user.findUnique({
      where: { id: message.requestedByUserId },
      select: { id: true, role: true },
    });
    if (user === null) throw new AppError('NOT_FOUND', 'The requesting user no longer exists');
    const sunsetAt = deps.staging.legacyAliasSunsetAt ?? now;
    const [item] = await submitStaging(
      { ...deps, staging: { ...deps.staging, legacyAliasSunsetAt: sunsetAt } },
      {
        actor: { id: user.id, role: user.role },
        assignments: [{ originalImageId: message.imageId, roomType, style: message.style }],
      },
    );
    if (item === undefined) throw new Error('submitStaging returned no item for one assignment');
    if (item.aiJobId !== null) await recordBridgeMetadata(deps, item, message, context, now);
    deps.logger.info(
      {
        event: 'legacy_bridge.materialized',
        jobId: item.aiJobId,
        disposition: item.disposition,
        queueJobId: context.queueJobId,
        imageId: message.imageId,
        submittedStyle: message.style,
        canonicalStyle: item.canonicalStyle,
        roomType,
      },
      'legacy_bridge.materialized',
    );
    return { kind: 'materialized', item };
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.code === 'STAGING_UNAVAILABLE') return { kind: 'deferred' };
    deps.logger.warn(
      {
        event: 'legacy_bridge.rejected',
        code: error.code,
        queueJobId: context.queueJobId,
        imageId: message.imageId,
        submittedStyle: message.style,
        requestedByUserId: message.requestedByUserId,
      },
      'legacy_bridge.rejected',
    );
    return { kind: 'rejected', code: error.code, message: error.message };
  }
}

async function resolveRoomType(deps: LegacyBridgeDeps, message: TLegacyStageRoomMessage): Promise<RoomType> {
  if (message.roomType !== undefined && message.roomType !== null && message.roomType.trim() !== '') {
    const normalized = normalizeLegacyRoomType(message.roomType);
    if (normalized === null) throw new AppError('BAD_REQUEST', 'The v1 room type names no known room type');
    return normalized;
  }
  const image = await deps.db.propertyImage.findUnique({
    where: { id: message.imageId },
    select: { roomType: true },
  });
  if (image === null) throw new AppError('NOT_FOUND', 'Image not found');
  if (image.roomType === null)
    throw new AppError('BAD_REQUEST', 'The message has no room type and the original has none persisted');
  return image.roomType;
}

/**
 * Adds `legacyMetadata.bridge` to the job the message produced. For EXISTING it is added only when
 * the open job is this message's own earlier materialization (same agent, same submitted style),
 * which is what a redelivery after a crash between commit and this update finds.
 */
async function recordBridgeMetadata(
  deps: LegacyBridgeDeps,
  item: StagingSubmissionItem,
  message: TLegacyStageRoomMessage,
  context: { queueJobId: string | null },
  now: Date,
): Promise<void> {
  if (item.disposition === STAGING_DISPOSITIONS.STYLE_EXISTS) return;
  const bridge = {
    source: 'legacy-queue',
    queueJobId: context.queueJobId,
    submittedAt: message.submittedAt,
    roomType: message.roomType ?? null,
    legacyJobId: message.legacyJobId ?? null,
    materializedAt: now.toISOString(),
  };
  const ownJob = item.disposition === STAGING_DISPOSITIONS.ENQUEUED;
  await deps.db.$executeRaw`
    UPDATE "ai_room_staging_jobs"
    SET "legacyMetadata" = COALESCE("legacyMetadata", '{}'::jsonb) || jsonb_build_object('bridge', ${JSON.stringify(bridge)}::jsonb)
    WHERE "aiJobId" = ${item.aiJobId}
      AND NOT (COALESCE("legacyMetadata", '{}'::jsonb) ? 'bridge')
      AND (${ownJob} OR ("requestedByUserId" = ${message.requestedByUserId} AND "submittedStyle" = ${message.style}))`;
}

/** Whether a persisted job came through the bridge (for readiness reports and the dashboard). */
export const BRIDGED_JOB_SQL = Prisma.sql`("legacyMetadata" ? 'bridge')`;

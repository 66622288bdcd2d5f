import { z } from 'zod';
import type { Db } from '@staging/db/client';
import { descriptionMachine } from '@staging/domain/description-states';
import type { Logger } from '@staging/platform/logger';
import { requestSearchRebuild } from '../images/request-search-rebuild';
import type { SearchQueue } from '../search/search-queue';
import { sqlStatusList } from '../staging/ledger/status-sql';
import type { Clock } from '../staging/staging-deps';
import type { DescriptionGenerator, PropertyFacts } from './description-generator';

export interface DescriptionWorkerDeps {
  db: Db;
  generator: DescriptionGenerator;
  logger: Logger;
  clock: Clock;
  /** The description is on the public page and in the search document: both follow a new one. */
  searchQueue: SearchQueue;
}

/** Error codes written to ai_jobs.errorCode of a DESCRIPTION job. */
export const DESCRIPTION_ERROR_CODES = {
  PROPERTY_NOT_FOUND: 'PROPERTY_NOT_FOUND',
  INVALID_PAYLOAD: 'INVALID_PAYLOAD',
  GENERATION_FAILED: 'DESCRIPTION_GENERATION_FAILED',
} as const;

export type DescriptionOutcome =
  | { kind: 'succeeded'; description: string }
  | { kind: 'failed'; errorCode: string }
  /** The row is terminal already (a redelivery) or gone; nothing was done. */
  | { kind: 'skipped'; reason: 'terminal' | 'missing' };

const ZDescriptionRowPayload = z.looseObject({ propertyId: z.string().min(1).max(100) });

// The three writes, target and guard read off the description job table.
const CLAIM = descriptionMachine.fixedMove('WORKER_PICKED_UP');
const FINISH = descriptionMachine.fixedMove('SUCCEEDED');
const FAIL = descriptionMachine.fixedMove('TERMINAL_FAILURE');

/**
 * Runs description job `aiJobId`: PENDING/PROCESSING → PROCESSING → SUCCESS with
 * properties.description and ai_jobs.result written in one transaction. Safe to run again after
 * a crash at any point: a PROCESSING row is taken over, a terminal row is left alone.
 * Generator errors are thrown to the caller, which retries and finally calls
 * {@link failDescriptionJob}.
 */
export async function processDescriptionJob(
  deps: DescriptionWorkerDeps,
  aiJobId: string,
): Promise<DescriptionOutcome> {
  const now = deps.clock.now();
  const claimed = await deps.db.$queryRaw<{ payload: unknown }[]>`
    UPDATE "ai_jobs"
    SET "status" = ${CLAIM.to}::"AiJobStatus", "phase" = NULL, "startedAt" = COALESCE("startedAt", ${now}), "heartbeatAt" = ${now}, "updatedAt" = ${now}
    WHERE "id" = ${aiJobId} AND "type" = 'DESCRIPTION' AND "status" IN (${sqlStatusList(CLAIM.from)})
    RETURNING "payload"`;
  const row = claimed[0];
  if (row === undefined) {
    const existing = await deps.db.aiJob.findUnique({ where: { id: aiJobId }, select: { id: true } });
    return { kind: 'skipped', reason: existing === null ? 'missing' : 'terminal' };
  }

  const payload = ZDescriptionRowPayload.safeParse(row.payload);
  if (!payload.success)
    return failDescriptionJob(
      deps,
      aiJobId,
      DESCRIPTION_ERROR_CODES.INVALID_PAYLOAD,
      'ai_jobs.payload has no propertyId',
    );
  const facts = await loadPropertyFacts(deps.db, payload.data.propertyId);
  if (facts === null)
    return failDescriptionJob(
      deps,
      aiJobId,
      DESCRIPTION_ERROR_CODES.PROPERTY_NOT_FOUND,
      'The property no longer exists',
    );

  const generated = await deps.generator.generate(facts);
  const completedAt = deps.clock.now();
  const finished = await deps.db.$transaction(async (tx) => {
    const updated = await tx.aiJob.updateMany({
      where: { id: aiJobId, status: { in: [...FINISH.from] } },
      data: {
        status: FINISH.to,
        completedAt,
        heartbeatAt: completedAt,
        errorCode: null,
        errorMessage: null,
        result: {
          description: generated.text,
          generator: generated.generator,
          generatorVersion: generated.generatorVersion,
        },
      },
    });
    if (updated.count === 0) return false;
    await tx.property.update({
      where: { id: facts.propertyId },
      data: { description: generated.text },
      select: { id: true },
    });
    return true;
  });
  if (!finished) return { kind: 'skipped', reason: 'terminal' };
  deps.logger.info(
    {
      event: 'ai_description.completed',
      jobId: aiJobId,
      propertyId: facts.propertyId,
      generator: generated.generator,
      chars: generated.text.length,
    },
    'ai_description.completed',
  );
  await requestSearchRebuild(deps, facts.propertyId);
  return { kind: 'succeeded', description: generated.text };
}

/** Ends a nonterminal description job as FAILED with `errorCode` (idempotent). */
export async function failDescriptionJob(
  deps: Pick<DescriptionWorkerDeps, 'db' | 'logger' | 'clock'>,
  aiJobId: string,
  errorCode: string,
  message: string,
): Promise<DescriptionOutcome> {
  const now = deps.clock.now();
  await deps.db.aiJob.updateMany({
    where: { id: aiJobId, type: 'DESCRIPTION', status: { in: [...FAIL.from] } },
    data: {
      status: FAIL.to,
      errorCode,
      errorMessage: message.slice(0, 1000),
      completedAt: now,
      heartbeatAt: now,
      phase: null,
    },
  });
  deps.logger.warn({ event: 'ai_description.failed', jobId: aiJobId, errorCode }, 'ai_description.failed');
  return { kind: 'failed', errorCode };
}

/** The stored facts of a property, or null when it does not exist. */
export async function loadPropertyFacts(db: Db, propertyId: string): Promise<PropertyFacts | null> {
  const property = await db.property.findUnique({
    where: { id: propertyId },
    select: {
      id: true,
      title: true,
      city: true,
      bedrooms: true,
      bathrooms: true,
      features: true,
      units: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { id: true, name: true } },
    },
  });
  if (property === null) return null;
  const counts = await db.inventoryItem.groupBy({
    by: ['propertyUnitId', 'status'],
    where: { unit: { propertyId } },
    _count: { _all: true },
  });
  return {
    propertyId: property.id,
    title: property.title,
    city: property.city,
    bedrooms: property.bedrooms,
    bathrooms: property.bathrooms,
    features: property.features,
    units: property.units.map((unit) => {
      const rows = counts.filter((c) => c.propertyUnitId === unit.id);
      return {
        name: unit.name,
        itemCount: rows.reduce((sum, c) => sum + c._count._all, 0),
        availableCount: rows
          .filter((c) => c.status === 'AVAILABLE')
          .reduce((sum, c) => sum + c._count._all, 0),
      };
    }),
  };
}

import type { HistoryImageDto, JobHistoryItemDto, JobHistoryPage } from '@staging/contracts/staging';
import { jobOutcome } from '@staging/domain/job-outcome';
import type { JobStatus } from '@staging/domain/staging-states';
import type { Actor } from '../access/property-access';
import { agentImageUrl } from '../images/image-dto';
import { listStagingJobs } from './get-jobs';
import type { JobReadDeps } from './staging-deps';

/**
 * The actor's staging jobs, newest first, one property or all of them (same keyset pages as
 * {@link listStagingJobs}), each with its review outcome, its property and its images.
 *
 * @throws AppError as {@link listStagingJobs}.
 */
export async function listJobHistory(
  deps: JobReadDeps,
  input: { actor: Actor; propertyId?: string; statuses?: JobStatus[]; limit: number; cursor?: string },
): Promise<JobHistoryPage> {
  const page = await listStagingJobs(deps, input);
  const jobIds = page.items.map((job) => job.aiJobId);
  const imageIds = page.items.flatMap((job) => [job.originalImageId, job.resultImageId]).filter((id): id is string => id !== null);
  const propertyIds = [...new Set(page.items.map((job) => job.propertyId))];
  const [images, properties, reviewEvents] = await Promise.all([
    deps.db.propertyImage.findMany({
      where: { id: { in: imageIds } },
      select: { id: true, width: true, height: true, fileName: true, reviewStatus: true, reviewedAt: true },
    }),
    deps.db.property.findMany({ where: { id: { in: propertyIds } }, select: { id: true, title: true } }),
    deps.db.propertyImageReviewEvent.findMany({
      where: { aiJobId: { in: jobIds } },
      select: { aiJobId: true, kind: true, reason: true, createdAt: true },
      orderBy: { createdAt: 'asc' },
    }),
  ]);
  const imageById = new Map(images.map((image) => [image.id, image]));
  const titleById = new Map(properties.map((property) => [property.id, property.title]));
  const rejectionByJob = lastRejections(reviewEvents);

  const items = page.items.map((job): JobHistoryItemDto => {
    const original = job.originalImageId === null ? undefined : imageById.get(job.originalImageId);
    const result = job.resultImageId === null ? undefined : imageById.get(job.resultImageId);
    const rejection = rejectionByJob.get(job.aiJobId);
    return {
      ...job,
      outcome: jobOutcome(job.status, { resultReviewStatus: result?.reviewStatus ?? null, rejection: rejection ?? null }),
      propertyTitle: titleById.get(job.propertyId) ?? '',
      original: original === undefined ? null : historyImage(original),
      result: result === undefined ? null : historyImage(result),
      reviewedAt: (result?.reviewedAt ?? rejection?.createdAt ?? null)?.toISOString() ?? null,
      rejectionReason: result === undefined ? (rejection?.reason ?? null) : null,
    };
  });
  return { items, nextCursor: page.nextCursor };
}

interface ReviewEventRow {
  aiJobId: string | null;
  kind: 'APPROVED' | 'REJECTED';
  reason: string | null;
  createdAt: Date;
}

/**
 * Each job's last rejection (events oldest first). A job has one result, and a rejection deletes
 * it, so an approval of the same job always came before the rejection: the rejection took a
 * published result down (rejecting is the only take-down, see rejectStagedVariant).
 */
function lastRejections(events: readonly ReviewEventRow[]) {
  const approved = new Set(events.filter((event) => event.kind === 'APPROVED').map((event) => event.aiJobId));
  const byJob = new Map<string, { reason: string | null; createdAt: Date; afterApproval: boolean }>();
  for (const event of events) {
    if (event.aiJobId === null || event.kind !== 'REJECTED') continue;
    byJob.set(event.aiJobId, { reason: event.reason, createdAt: event.createdAt, afterApproval: approved.has(event.aiJobId) });
  }
  return byJob;
}

function historyImage(image: { id: string; width: number; height: number; fileName: string | null }): HistoryImageDto {
  return { id: image.id, url: agentImageUrl(image.id), width: image.width, height: image.height, fileName: image.fileName };
}

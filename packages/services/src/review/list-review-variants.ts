import type { ListReviewVariantsInput, PendingReviewCount, ReviewVariantDto, ReviewVariantPage } from '@staging/contracts/staging';
import { Prisma } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { newestOfVisiblePropertiesSql } from '../access/property-access';
import type { Actor } from '../access/property-access';
import { AGENT_IMAGE_SELECT, IMAGE_ORDER, toAgentImageDto } from '../images/image-dto';
import { decodeCreatedAtCursor, encodeCreatedAtCursor } from '../keyset-cursor';

/** Variants counted for the navigation badge at most: past it the badge says "99+". */
export const REVIEW_COUNT_CAP = 100;

/** The review page's rows of one state: its variants of the actor's own and assigned properties. */
function reviewRowsSql(db: Db, actor: Actor, filters: Prisma.Sql[], take: number): Promise<Prisma.Sql> {
  // Review is the agents' own: an admin's support access reviews only the admin's own properties.
  const reviewer: Actor = { id: actor.id, role: 'AGENT' };
  return newestOfVisiblePropertiesSql(db, reviewer, { table: Prisma.sql`"property_images"`, filters: [Prisma.sql`r."isStyled"`, ...filters], take });
}

/** ai.pendingReviewCount: how many variants wait for the actor's review, for the navigation badge. */
export async function countPendingReview(db: Db, actor: Actor): Promise<PendingReviewCount> {
  const [row] = await db.$queryRaw<{ count: number }[]>`
    SELECT COUNT(*)::int AS "count" FROM (${await reviewRowsSql(db, actor, [Prisma.sql`r."reviewStatus" = 'PENDING_REVIEW'`], REVIEW_COUNT_CAP + 1)}) counted`;
  const count = row?.count ?? 0;
  return { pending: Math.min(count, REVIEW_COUNT_CAP), isLowerBound: count > REVIEW_COUNT_CAP };
}

/**
 * ai.reviewVariants: staged variants in one review state, newest first, of the properties the
 * actor owns or is assigned to (as lockReviewableVariant allows). Keyset pages on
 * (createdAt, id), walked from the actor's properties like the job lists.
 */
export async function listReviewVariants(
  db: Db,
  actor: Actor,
  input: ListReviewVariantsInput,
): Promise<ReviewVariantPage> {
  const after = input.cursor === undefined ? null : decodeCreatedAtCursor(input.cursor);
  const filters = [Prisma.sql`r."reviewStatus" = ${input.reviewStatus}::"ReviewStatus"`];
  if (after !== null) filters.push(Prisma.sql`(r."createdAt", r."id") < (${after.createdAt}, ${after.id})`);
  const ids = (await db.$queryRaw<{ id: string }[]>(await reviewRowsSql(db, actor, filters, input.limit + 1))).map((row) => row.id);
  const pageIds = ids.slice(0, input.limit);
  const variants = await db.propertyImage.findMany({
    where: { id: { in: pageIds } },
    select: { ...AGENT_IMAGE_SELECT, property: { select: { id: true, title: true } } },
  });
  const propertyIds = [...new Set(variants.map((variant) => variant.propertyId))];
  const originals = await db.propertyImage.findMany({
    where: { propertyId: { in: propertyIds }, isStyled: false },
    select: AGENT_IMAGE_SELECT,
    orderBy: IMAGE_ORDER,
  });
  const byId = new Map(variants.map((variant) => [variant.id, variant]));
  const items = pageIds.flatMap((id): ReviewVariantDto[] => {
    const variant = byId.get(id);
    if (variant === undefined) return [];
    const siblings = originals.filter((image) => image.propertyId === variant.propertyId);
    const index = siblings.findIndex((image) => image.id === variant.styledFromId);
    const original = siblings[index];
    const { property, ...image } = variant;
    return [{ property, variant: toAgentImageDto(image), original: original === undefined ? null : toAgentImageDto(original), originalNumber: original === undefined ? null : index + 1 }];
  });
  const last = byId.get(pageIds[pageIds.length - 1] ?? '');
  return { items, nextCursor: ids.length > input.limit && last !== undefined ? encodeCreatedAtCursor(last) : null };
}

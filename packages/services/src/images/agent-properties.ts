import { isWellFormedId } from '@staging/contracts/ids';
import { PROPERTY_LIST_LIMITS } from '@staging/contracts/property';
import type { AgentImageDto, AgentPropertyDto, AgentPropertyPage, ListPropertiesInput, PropertyHeader, PropertyRelation, ReviewSummary } from '@staging/contracts/property';
import { Prisma } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import { AppError, ErrorCode } from '@staging/domain/errors';
import { publicCoverOf } from '@staging/domain/listing-cover';
import { accessiblePropertyFilter, PROPERTY_NOT_FOUND } from '../access/property-access';
import type { Actor } from '../access/property-access';
import { LISTING_FACTS_SELECT } from '../public/get-public-property';
import { AGENT_IMAGE_SELECT, IMAGE_ORDER, toAgentImageDto } from './image-dto';

const propertySelect = (actorId: string) =>
  ({
    ...LISTING_FACTS_SELECT,
    ownerAgentId: true,
    newImagesPublic: true,
    createdAt: true,
    agents: { where: { userId: actorId }, select: { userId: true } },
    images: { select: AGENT_IMAGE_SELECT, orderBy: IMAGE_ORDER },
  }) as const;

type PropertyRow = {
  ownerAgentId: string;
  agents: { userId: string }[];
  images: Parameters<typeof toAgentImageDto>[0][];
};

function relationOf(actor: Actor, row: PropertyRow): PropertyRelation {
  if (row.ownerAgentId === actor.id) return 'OWNER';
  if (row.agents.length > 0) return 'ASSIGNED';
  return 'ADMIN';
}

function reviewSummary(images: readonly AgentImageDto[]): ReviewSummary {
  return {
    originals: images.filter((image) => !image.isStyled).length,
    pendingReview: images.filter((image) => image.reviewStatus === 'PENDING_REVIEW').length,
    approved: images.filter((image) => image.reviewStatus === 'APPROVED').length,
  };
}

function headerOf(
  actor: Actor,
  row: PropertyRow & { id: string; title: string; address: string; city: string; createdAt: Date },
  images: readonly AgentImageDto[],
): PropertyHeader {
  return {
    id: row.id,
    title: row.title,
    address: row.address,
    city: row.city,
    relation: relationOf(actor, row),
    review: reviewSummary(images),
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The photo a list row shows: the listing's public cover, else (every photo hidden) the first
 * original, so the agent still recognises the property.
 */
function coverOf(images: readonly AgentImageDto[]): AgentImageDto | null {
  const originals = images.filter((image) => !image.isStyled);
  return publicCoverOf(originals) ?? originals[0] ?? null;
}

/**
 * property.list: the properties the caller owns or is assigned to (every property for an admin),
 * newest first, with cover and review counts. Keyset pagination by ID cursor.
 */
export async function listAgentProperties(
  db: Db,
  actor: Actor,
  input: ListPropertiesInput,
): Promise<AgentPropertyPage> {
  const limit = input?.limit ?? PROPERTY_LIST_LIMITS.defaultLimit;
  const ids = await propertyPageIds(db, actor, limit + 1, input?.cursor);
  const pageIds = ids.slice(0, limit);
  const rows = await db.property.findMany({ where: { id: { in: pageIds } }, select: propertySelect(actor.id) });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const page = pageIds.flatMap((id) => byId.get(id) ?? []);
  return {
    items: page.map((row) => {
      const images = row.images.map(toAgentImageDto);
      return { ...headerOf(actor, row, images), coverImage: coverOf(images) };
    }),
    nextCursor: ids.length > limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}

/**
 * IDs of one page of the caller's properties, newest first, after the property `cursor` (none
 * when it names no property). An agent's owned properties walk the owner index and stop at the
 * page's end; assigned ones (few per agent) join in; an admin walks every property's index.
 */
async function propertyPageIds(db: Db, actor: Actor, take: number, cursor: string | undefined): Promise<string[]> {
  const after =
    cursor === undefined
      ? Prisma.sql`TRUE`
      : Prisma.sql`(p."createdAt", p."id") < (SELECT c."createdAt", c."id" FROM "properties" c WHERE c."id" = ${cursor})`;
  const rows =
    actor.role === 'ADMIN'
      ? await db.$queryRaw<{ id: string }[]>`
          SELECT p."id" FROM "properties" p WHERE ${after} ORDER BY p."createdAt" DESC, p."id" DESC LIMIT ${take}`
      : await db.$queryRaw<{ id: string }[]>`
          SELECT v."id" FROM (
            (SELECT p."id", p."createdAt" FROM "properties" p
              WHERE p."ownerAgentId" = ${actor.id} AND ${after}
              ORDER BY p."createdAt" DESC, p."id" DESC LIMIT ${take})
            UNION ALL
            (SELECT p."id", p."createdAt" FROM "property_agents" pa JOIN "properties" p ON p."id" = pa."propertyId"
              WHERE pa."userId" = ${actor.id} AND p."ownerAgentId" <> ${actor.id} AND ${after}
              ORDER BY p."createdAt" DESC, p."id" DESC LIMIT ${take})
          ) v
          ORDER BY v."createdAt" DESC, v."id" DESC LIMIT ${take}`;
  return rows.map((row) => row.id);
}

/** property.get: one property the caller may manage, with every image and its review state. */
export async function getAgentProperty(db: Db, actor: Actor, propertyId: string): Promise<AgentPropertyDto> {
  if (!isWellFormedId(propertyId)) throw new AppError(ErrorCode.NOT_FOUND, PROPERTY_NOT_FOUND);
  const row = await db.property.findFirst({
    where: { AND: [{ id: propertyId }, accessiblePropertyFilter(actor)] },
    select: propertySelect(actor.id),
  });
  if (row === null) throw new AppError(ErrorCode.NOT_FOUND, PROPERTY_NOT_FOUND);
  const images = row.images.map(toAgentImageDto);
  return {
    ...headerOf(actor, row, images),
    description: row.description,
    bedrooms: row.bedrooms,
    bathrooms: row.bathrooms,
    features: row.features,
    ownerAgentId: row.ownerAgentId,
    newImagesPublic: row.newImagesPublic,
    images,
  };
}

/**
 * The title of a property the caller may manage, for the browser tab of its pages; null when the
 * ID names no such property, so a tab never shows the title of someone else's listing.
 */
export async function findAgentPropertyTitle(db: Db, actor: Actor, propertyId: string): Promise<string | null> {
  if (!isWellFormedId(propertyId)) return null;
  const row = await db.property.findFirst({
    where: { AND: [{ id: propertyId }, accessiblePropertyFilter(actor)] },
    select: { title: true },
  });
  return row?.title ?? null;
}

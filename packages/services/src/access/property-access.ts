import { AppError, ErrorCode } from '@staging/domain/errors';
import { Prisma } from '@staging/db/client';
import type { Db } from '@staging/db/client';

/** Who is acting: the session user reduced to what authorization needs. */
export type Actor = { id: string; role: 'AGENT' | 'ADMIN' };

/**
 * One message for "does not exist" and "exists but not yours": a caller must not learn which
 * property IDs exist by probing (docs/system.md 5.4).
 */
export const PROPERTY_NOT_FOUND = 'Property not found';

/**
 * Prisma `where` for the properties `actor` may read and manage: everything for ADMIN (support
 * role, docs/decisions/api.md "Admin access to properties"), owned or assigned ones for an agent.
 */
export function accessiblePropertyFilter(actor: Actor): Prisma.PropertyWhereInput {
  if (actor.role === 'ADMIN') return {};
  return agentPropertyFilter(actor);
}

function agentPropertyFilter(actor: Actor): Prisma.PropertyWhereInput {
  return { OR: [{ ownerAgentId: actor.id }, { agents: { some: { userId: actor.id } } }] };
}

/**
 * The same rule as {@link accessiblePropertyFilter} as a SQL condition over a `properties` row
 * aliased `alias`, for the raw single-statement bulk paths.
 */
export function accessiblePropertySql(actor: Actor, alias: string): Prisma.Sql {
  if (actor.role === 'ADMIN') return Prisma.sql`TRUE`;
  const table = Prisma.raw(`"${alias}"`);
  return Prisma.sql`(${table}."ownerAgentId" = ${actor.id} OR EXISTS (
    SELECT 1 FROM "property_agents" pa WHERE pa."propertyId" = ${table}."id" AND pa."userId" = ${actor.id}))`;
}

/**
 * The IDs of the properties an agent owns or is assigned to, as a subquery that starts from the
 * owner index and the assignments, so it never visits another agent's properties.
 */
export function visiblePropertyIdsSql(actor: Actor): Prisma.Sql {
  return Prisma.sql`SELECT vp."id" FROM "properties" vp WHERE vp."ownerAgentId" = ${actor.id}
    UNION SELECT va."propertyId" FROM "property_agents" va WHERE va."userId" = ${actor.id}`;
}

/** How many properties an agent may see, counted up to `cap` (an index walk that stops there). */
export async function countVisiblePropertiesUpTo(db: Db, actor: Actor, cap: number): Promise<number> {
  const [row] = await db.$queryRaw<{ count: number }[]>`
    SELECT COUNT(*)::int AS "count" FROM (${visiblePropertyIdsSql(actor)} LIMIT ${cap}) v`;
  return row?.count ?? 0;
}

/**
 * Who may read property `propertyId`, by the rule of {@link accessiblePropertyFilter}, as a test of
 * an actor: one query answers for every live subscriber an event of that property could reach.
 * Nobody may read a property that no longer exists, an admin neither.
 */
export async function propertyReaders(db: Db, propertyId: string): Promise<(actor: Actor) => boolean> {
  const property = await db.property.findUnique({
    where: { id: propertyId },
    select: { ownerAgentId: true, agents: { select: { userId: true } } },
  });
  if (property === null) return () => false;
  const agents = new Set([property.ownerAgentId, ...property.agents.map((agent) => agent.userId)]);
  return (actor) => actor.role === 'ADMIN' || agents.has(actor.id);
}

/** Passes when `actor` owns, is assigned to, or (ADMIN) supports the property; else NOT_FOUND. */
export async function assertCanManageProperty(db: Db, actor: Actor, propertyId: string): Promise<void> {
  const property = await db.property.findFirst({
    where: { AND: [{ id: propertyId }, accessiblePropertyFilter(actor)] },
    select: { id: true },
  });
  if (property === null) throw new AppError(ErrorCode.NOT_FOUND, PROPERTY_NOT_FOUND);
}

/**
 * Review (approve/reject staged variants) is the owning or assigned agent's judgement: an ADMIN
 * gets NOT_FOUND like any unrelated user (docs/decisions/api.md "Admin access to properties").
 */
export async function assertCanReviewProperty(db: Db, actor: Actor, propertyId: string): Promise<void> {
  const property = await db.property.findFirst({
    where: { AND: [{ id: propertyId }, agentPropertyFilter(actor)] },
    select: { id: true },
  });
  if (property === null) throw new AppError(ErrorCode.NOT_FOUND, PROPERTY_NOT_FOUND);
}

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
 * owner index and the assignments, so it never visits another agent's properties. `UNION ALL`
 * lists a property both owned and assigned twice.
 */
function visiblePropertyIdsSql(actor: Actor, union: 'UNION' | 'UNION ALL' = 'UNION'): Prisma.Sql {
  return Prisma.sql`SELECT vp."id" FROM "properties" vp WHERE vp."ownerAgentId" = ${actor.id}
    ${Prisma.raw(union)} SELECT va."propertyId" FROM "property_agents" va WHERE va."userId" = ${actor.id}`;
}

/**
 * How many properties an agent may see, counted up to `cap` (an index walk that stops there). The
 * rows are not made distinct: a UNION hashes every one of an agency's 10,000 properties before the
 * limit can stop it, and a property counted twice only ever tips the choice to the other walk.
 */
async function countVisiblePropertiesUpTo(db: Db, actor: Actor, cap: number): Promise<number> {
  const [row] = await db.$queryRaw<{ count: number }[]>`
    SELECT COUNT(*)::int AS "count" FROM (${visiblePropertyIdsSql(actor, 'UNION ALL')} LIMIT ${cap}) v`;
  return row?.count ?? 0;
}

/**
 * Up to this many properties, a list of an agent's rows merges each property's newest rows; past
 * it, it walks the newest rows of all properties and keeps the agent's. Either way a page reads
 * about `take` rows per property merged, or `take` divided by the agent's share of all rows.
 */
const MERGE_MAX_PROPERTIES = 200;

/**
 * A page of the newest rows (by "createdAt", "id") of `table`, aliased `r` in `filters`, of every
 * property the actor may see (docs/decisions/staging.md "Job lists and spend at a customer's
 * size"). Postgres cannot tell from its statistics how many properties an agent has, so the
 * choice between the two walks is made here, from a count that stops at the threshold. The table
 * needs an index on ("propertyId", …) and one whose order ends in ("createdAt", "id").
 */
export async function newestOfVisiblePropertiesSql(
  db: Db,
  actor: Actor,
  options: { table: Prisma.Sql; filters: Prisma.Sql[]; take: number },
): Promise<Prisma.Sql> {
  const { table, filters, take } = options;
  const newestFirst = Prisma.sql`ORDER BY r."createdAt" DESC, r."id" DESC LIMIT ${take}`;
  if (actor.role === 'AGENT' && (await countVisiblePropertiesUpTo(db, actor, MERGE_MAX_PROPERTIES + 1)) <= MERGE_MAX_PROPERTIES) {
    return Prisma.sql`SELECT t."id" FROM (${visiblePropertyIdsSql(actor)}) v("propertyId")
      CROSS JOIN LATERAL (SELECT r."id", r."createdAt" FROM ${table} r
        WHERE r."propertyId" = v."propertyId" AND ${Prisma.join(filters, ' AND ')} ${newestFirst}) t
      ORDER BY t."createdAt" DESC, t."id" DESC LIMIT ${take}`;
  }
  return Prisma.sql`SELECT r."id" FROM ${table} r
    WHERE ${Prisma.join(filters, ' AND ')} AND EXISTS (SELECT 1 FROM "properties" p WHERE p."id" = r."propertyId" AND ${accessiblePropertySql(actor, 'p')})
    ${newestFirst}`;
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

import type { SpendByPropertyInput, SpendByPropertyPage, SpendFigures, SpendRowDto, SpendSummaryDto } from '@staging/contracts/staging';
import { AppError } from '@staging/domain/errors';
import { Prisma } from '@staging/db/client';
import type { Db } from '@staging/db/client';
import type { Actor } from '../access/property-access';
import { summarizeDailyPurchases } from './daily-purchases';
import type { StagingProducerDeps } from './staging-deps';

/** Properties listed per month in the summary: its answer stays the same size for any agency. */
export const SPEND_TOP_PROPERTIES = 10;

interface FigureRow {
  estimate: bigint;
  attempts: number;
  unpriced: number;
}
interface RankedRow extends FigureRow {
  month: string;
  propertyId: string;
}

/** `YYYY-MM` (UTC) of each of the last `count` months, newest first. */
function monthsBack(now: Date, count: number): string[] {
  return Array.from({ length: count }, (_, back) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)).toISOString().slice(0, 7));
}

function figuresOf(row: FigureRow): SpendFigures {
  return { estimateMicrousd: Number(row.estimate), attempts: row.attempts, attemptsWithoutEstimate: row.unpriced };
}

/**
 * The caller's property-months of `month`, largest estimate first (ties by property ID, both
 * descending, so one row comparison is the keyset), after `after`, at most `take`. Reads the
 * running totals of ai_spend_property_months (migration 0018): an owner's rows walk the owner's
 * rank index and stop at `take`; assigned properties (few per agent) join in by key; an admin
 * walks the month's rank index.
 */
function rankedSpendSql(actor: Actor, month: Prisma.Sql, after: { estimate: bigint; propertyId: string } | null, take: number): Prisma.Sql {
  const cols = Prisma.sql`s."month", s."propertyId", s."estimateMicrousd" AS "estimate", s."attempts", s."attemptsWithoutEstimate" AS "unpriced"`;
  const keyset = after === null ? Prisma.sql`TRUE` : Prisma.sql`(s."estimateMicrousd", s."propertyId") < (${after.estimate}, ${after.propertyId})`;
  const order = Prisma.sql`ORDER BY "estimate" DESC, "propertyId" DESC LIMIT ${take}`;
  if (actor.role === 'ADMIN') {
    return Prisma.sql`SELECT ${cols} FROM "ai_spend_property_months" s
      WHERE s."month" = ${month} AND s."attempts" > 0 AND ${keyset} ${order}`;
  }
  return Prisma.sql`SELECT v.* FROM (
      (SELECT ${cols} FROM "ai_spend_property_months" s
        WHERE s."ownerAgentId" = ${actor.id} AND s."month" = ${month} AND s."attempts" > 0 AND ${keyset} ${order})
      UNION ALL
      (SELECT ${cols} FROM "property_agents" pa JOIN "ai_spend_property_months" s ON s."propertyId" = pa."propertyId"
        WHERE pa."userId" = ${actor.id} AND s."ownerAgentId" <> ${actor.id} AND s."month" = ${month} AND s."attempts" > 0 AND ${keyset})
    ) v ${order}`;
}

/** Each month's totals over the caller's properties: the owner's running totals plus assigned properties'. */
function monthTotalsSql(actor: Actor, months: string[]): Prisma.Sql {
  const figures = Prisma.sql`SUM("estimateMicrousd")::bigint AS "estimate", SUM("attempts")::int AS "attempts", SUM("attemptsWithoutEstimate")::int AS "unpriced"`;
  if (actor.role === 'ADMIN') {
    return Prisma.sql`SELECT "month", ${figures} FROM "ai_spend_owner_months"
      WHERE "month" = ANY(${months}::text[]) GROUP BY "month"`;
  }
  return Prisma.sql`SELECT "month", ${figures} FROM (
      SELECT o."month", o."estimateMicrousd", o."attempts", o."attemptsWithoutEstimate" FROM "ai_spend_owner_months" o
        WHERE o."ownerAgentId" = ${actor.id} AND o."month" = ANY(${months}::text[])
      UNION ALL
      SELECT s."month", s."estimateMicrousd", s."attempts", s."attemptsWithoutEstimate"
        FROM "property_agents" pa JOIN "ai_spend_property_months" s ON s."propertyId" = pa."propertyId"
        WHERE pa."userId" = ${actor.id} AND s."ownerAgentId" <> ${actor.id} AND s."month" = ANY(${months}::text[])
    ) v GROUP BY "month"`;
}

async function withTitles(db: Db, rows: readonly RankedRow[]): Promise<SpendRowDto[]> {
  const properties = await db.property.findMany({ where: { id: { in: [...new Set(rows.map((row) => row.propertyId))] } }, select: { id: true, title: true } });
  const titleById = new Map(properties.map((property) => [property.id, property.title]));
  return rows.map((row) => ({ month: row.month, propertyId: row.propertyId, propertyTitle: titleById.get(row.propertyId) ?? '', ...figuresOf(row) }));
}

/**
 * Estimated staging spend over the last `months` calendar months (the current one included), for
 * the properties the actor may manage (all of them for an admin): each month's totals and its
 * top properties. An attempt counts in the month it was reserved, once it has a prediction or a
 * recorded estimate: a reservation the provider never saw bought nothing. The answer's size does
 * not grow with the number of properties.
 */
export async function summarizeSpend(
  deps: Pick<StagingProducerDeps, 'db' | 'clock' | 'staging'>,
  input: { actor: Actor; months: number },
): Promise<SpendSummaryDto> {
  const now = deps.clock.now();
  const months = monthsBack(now, input.months);
  const since = new Date(`${months[months.length - 1]}-01T00:00:00.000Z`);
  const [totals, ranked] = await Promise.all([
    deps.db.$queryRaw<(FigureRow & { month: string })[]>(monthTotalsSql(input.actor, months)),
    deps.db.$queryRaw<RankedRow[]>`
      SELECT t.* FROM unnest(${months}::text[]) AS m("month")
        CROSS JOIN LATERAL (${rankedSpendSql(input.actor, Prisma.sql`m."month"`, null, SPEND_TOP_PROPERTIES + 1)}) t`,
  ]);
  const today = await summarizeDailyPurchases(deps.db, now, deps.staging.dailyPurchaseCap);
  const shownByMonth = new Map<string, RankedRow[]>();
  for (const row of ranked) shownByMonth.set(row.month, [...(shownByMonth.get(row.month) ?? []), row]);
  const totalByMonth = new Map(totals.map((row) => [row.month, row]));
  const monthsWithSpend = months.filter((month) => (shownByMonth.get(month)?.length ?? 0) > 0);
  return {
    kind: 'estimate',
    since: since.toISOString(),
    today,
    topPropertiesPerMonth: SPEND_TOP_PROPERTIES,
    rows: await withTitles(deps.db, monthsWithSpend.flatMap((month) => (shownByMonth.get(month) ?? []).slice(0, SPEND_TOP_PROPERTIES))),
    months: monthsWithSpend.map((month) => ({
      month,
      ...figuresOf(totalByMonth.get(month) ?? { estimate: 0n, attempts: 0, unpriced: 0 }),
      hasMoreProperties: (shownByMonth.get(month)?.length ?? 0) > SPEND_TOP_PROPERTIES,
    })),
  };
}

/** ai.spendByProperty: one month's spend of every property the actor may manage, largest first, in keyset pages. */
export async function listSpendByProperty(
  deps: Pick<StagingProducerDeps, 'db'>,
  input: { actor: Actor } & SpendByPropertyInput,
): Promise<SpendByPropertyPage> {
  const after = input.cursor === undefined ? null : decodeSpendCursor(input.cursor);
  const rows = await deps.db.$queryRaw<RankedRow[]>(rankedSpendSql(input.actor, Prisma.sql`${input.month}`, after, input.limit + 1));
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    month: input.month,
    items: await withTitles(deps.db, page),
    nextCursor: rows.length > input.limit && last !== undefined ? encodeSpendCursor(last) : null,
  };
}

function encodeSpendCursor(row: { estimate: bigint; propertyId: string }): string {
  return Buffer.from(`${row.estimate}|${row.propertyId}`, 'utf8').toString('base64url');
}

function decodeSpendCursor(cursor: string): { estimate: bigint; propertyId: string } {
  const [estimate, propertyId] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (estimate === undefined || !/^-?\d{1,19}$/.test(estimate) || propertyId === undefined || propertyId.length === 0) {
    const message = 'Invalid cursor.';
    throw new AppError('BAD_REQUEST', message, { issues: [{ path: ['cursor'], message }] });
  }
  return { estimate: BigInt(estimate), propertyId };
}

import type { PropertyUnitRecord } from '@staging/contracts/inventory';
import { AppError, ErrorCode, IssueCode } from '@staging/domain/errors';
import { Prisma } from '@staging/db/client';
import type { DbTransaction } from '@staging/db/client';
import type { Actor } from '../access/property-access';
import { accessiblePropertySql, PROPERTY_NOT_FOUND } from '../access/property-access';
import { UNIT_NOT_FOUND } from './item-records';

/** A property_units row as the unit use cases read it. */
export interface UnitRow {
  id: string;
  propertyId: string;
  name: string;
  createdAt: Date;
}

export const UNIT_SELECT = { id: true, propertyId: true, name: true, createdAt: true } as const satisfies Prisma.PropertyUnitSelect;

export function toUnitRecord(unit: UnitRow): PropertyUnitRecord {
  return { propertyUnitId: unit.id, propertyId: unit.propertyId, name: unit.name, createdAt: unit.createdAt.toISOString() };
}

/**
 * Locks the property row when `actor` may manage it (NOT_FOUND otherwise), so that the name checks
 * and writes of one property's units take turns: two agents adding "Tower" at once cannot both
 * see the name free. NO KEY UPDATE does not block inserts that merely reference the property.
 */
export async function lockManageableProperty(tx: DbTransaction, actor: Actor, propertyId: string): Promise<void> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT p."id" FROM "properties" p
    WHERE p."id" = ${propertyId} AND ${accessiblePropertySql(actor, 'p')}
    FOR NO KEY UPDATE OF p`;
  if (rows.length === 0) throw new AppError(ErrorCode.NOT_FOUND, PROPERTY_NOT_FOUND);
}

/**
 * The unit if `actor` may manage its property (NOT_FOUND otherwise, either reason), with the lock
 * `lock` names: `property` as {@link lockManageableProperty} takes it, `unit` FOR UPDATE, which
 * makes item inserts into the unit wait (they take KEY SHARE on it) until the transaction ends.
 */
export async function lockManageableUnit(tx: DbTransaction, actor: Actor, unitId: string, lock: 'property' | 'unit'): Promise<UnitRow> {
  const locking = lock === 'property' ? Prisma.sql`FOR NO KEY UPDATE OF p` : Prisma.sql`FOR UPDATE OF u`;
  const [unit] = await tx.$queryRaw<UnitRow[]>`
    SELECT u."id", u."propertyId", u."name", u."createdAt"
    FROM "property_units" u JOIN "properties" p ON p."id" = u."propertyId"
    WHERE u."id" = ${unitId} AND ${accessiblePropertySql(actor, 'p')}
    ${locking}`;
  if (unit === undefined) throw new AppError(ErrorCode.NOT_FOUND, UNIT_NOT_FOUND);
  return unit;
}

/**
 * CONFLICT on `name` when another unit of the property (not `exceptUnitId`) has a name that reads
 * the same: compared as the unique index property_units_name_uidx (migrations 0021, 0027) compares
 * them, without regard to letter case or character width (lower of NFKC, lowered by ICU's root
 * locale whatever the database's own), so rows stored before names were normalized are found too.
 * Runs under {@link lockManageableProperty}'s lock, so the index never meets a second unit of one
 * name; the export's unit column and the import's unit picker show units by name, and two alike
 * would be told apart by nothing.
 */
export async function assertUnitNameFree(tx: DbTransaction, propertyId: string, name: string, exceptUnitId?: string): Promise<void> {
  const except = exceptUnitId === undefined ? Prisma.empty : Prisma.sql`AND "id" <> ${exceptUnitId}`;
  const taken = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "property_units"
    WHERE "propertyId" = ${propertyId}
      AND lower(normalize("name", NFKC) COLLATE "und-x-icu") = lower(normalize(${name}::text, NFKC) COLLATE "und-x-icu") ${except}
    LIMIT 1`;
  if (taken.length > 0) {
    throw new AppError(ErrorCode.CONFLICT, 'A unit with this name already exists in this property', {
      issues: [{ path: ['name'], message: 'Already used by another unit of this property', code: IssueCode.ALREADY_USED }],
    });
  }
}

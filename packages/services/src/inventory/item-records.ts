import { Prisma } from '@staging/db/client';
import type { InventoryItemRecord } from '@staging/domain/inventory';
import type { Actor } from '../access/property-access';
import type { Db } from '@staging/db/client';

/** What every inventory use case needs besides its input. */
export interface InventoryContext {
  db: Db;
  actor: Actor;
  /** The injected clock's reading for this request: createdAt/updatedAt of written rows. */
  now: Date;
}

/** Same message for "no such item" and "not yours": existence is never revealed. */
export const ITEM_NOT_FOUND = 'Inventory item not found';
export const UNIT_NOT_FOUND = 'Property unit not found';

/** The Prisma `select` behind {@link InventoryItemRecord} (single-row paths). */
export const ITEM_SELECT = {
  id: true,
  propertyUnitId: true,
  unitNumber: true,
  floor: true,
  status: true,
  priceAdjustment: true,
  notes: true,
  createdAt: true,
  updatedAt: true,
  unit: { select: { propertyId: true } },
} as const satisfies Prisma.InventoryItemSelect;

type SelectedItem = Prisma.InventoryItemGetPayload<{ select: typeof ITEM_SELECT }>;

export function toItemRecord(item: SelectedItem): InventoryItemRecord {
  return {
    itemId: item.id,
    propertyUnitId: item.propertyUnitId,
    propertyId: item.unit.propertyId,
    unitNumber: item.unitNumber,
    floor: item.floor,
    status: item.status,
    priceAdjustment: item.priceAdjustment === null ? null : item.priceAdjustment.toNumber(),
    notes: item.notes,
    createdAt: item.createdAt.toISOString(),
    updatedAt: item.updatedAt.toISOString(),
  };
}

/**
 * A row of the raw bulk statements: the record before its timestamps are serialized. priceAdjustment
 * arrives as float8: numeric(14,2) has at most 14 significant digits, which a double holds exactly
 * enough to print back the same decimal.
 */
export interface ItemRow extends Omit<InventoryItemRecord, 'createdAt' | 'updatedAt'> {
  createdAt: Date;
  updatedAt: Date;
}

/** The raw-SQL column list producing an {@link ItemRow} from an inventory_items alias. */
export function itemRowColumns(alias: string): Prisma.Sql {
  const t = Prisma.raw(`"${alias}"`);
  return Prisma.sql`${t}."id" AS "itemId", ${t}."propertyUnitId", ${t}."unitNumber", ${t}."floor",
    ${t}."status"::text AS "status", ${t}."priceAdjustment"::float8 AS "priceAdjustment", ${t}."notes",
    ${t}."createdAt", ${t}."updatedAt"`;
}

export function rowToItemRecord(row: ItemRow): InventoryItemRecord {
  return {
    itemId: row.itemId,
    propertyUnitId: row.propertyUnitId,
    propertyId: row.propertyId,
    unitNumber: row.unitNumber,
    floor: row.floor,
    status: row.status,
    priceAdjustment: row.priceAdjustment,
    notes: row.notes,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Decimal text for numeric parameters: String() of a double is its shortest exact spelling. */
export function toNumericText(value: number | null | undefined): string | null {
  return value === null || value === undefined ? null : String(value);
}

import type { InventoryItemRecord } from '@staging/contracts/inventory';
import { Prisma } from '@staging/db/client';
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
 * The raw-SQL column list producing an {@link InventoryItemRecord}, in its key order, from an
 * inventory_items alias and the statement's expression for the item's property, so rows are
 * records as they arrive. priceAdjustment arrives as float8: numeric(14,2) has at most 14
 * significant digits, which a double holds exactly enough to print back the same decimal.
 * Timestamps arrive as the ISO 8601 text `Date#toISOString` writes (UTC, milliseconds, `Z`):
 * parsing hundreds of them into Dates only to print them again was a tenth of a 500-row bulk call.
 */
export function itemRecordColumns(
  alias: string,
  propertyId: Prisma.Sql,
  writtenAt: { createdAt?: Date; updatedAt?: Date } = {},
): Prisma.Sql {
  const t = Prisma.raw(`"${alias}"`);
  // A timestamp the statement itself wrote from a parameter is that parameter: sent as text once
  // instead of formatted again on every row.
  const timestamp = (column: 'createdAt' | 'updatedAt') => {
    const written = writtenAt[column];
    return written === undefined ? isoText(Prisma.sql`${t}.${Prisma.raw(`"${column}"`)}`) : Prisma.sql`${written.toISOString()}::text`;
  };
  return Prisma.sql`${t}."id" AS "itemId", ${t}."propertyUnitId", ${propertyId} AS "propertyId", ${t}."unitNumber", ${t}."floor",
    ${t}."status"::text AS "status", ${t}."priceAdjustment"::float8 AS "priceAdjustment", ${t}."notes",
    ${timestamp('createdAt')} AS "createdAt", ${timestamp('updatedAt')} AS "updatedAt"`;
}

function isoText(timestamp: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`to_char(${timestamp} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** Decimal text for numeric parameters: String() of a double is its shortest exact spelling. */
export function toNumericText(value: number | null | undefined): string | null {
  return value === null || value === undefined ? null : String(value);
}

/**
 * The records in the order of `keys`, one per key. Callers' statements fail unless they reach
 * every key, so a key without its record is a bug, never an answer to pass on.
 */
export function inKeyOrder(
  records: readonly InventoryItemRecord[],
  keyOf: (record: InventoryItemRecord) => string,
  keys: readonly string[],
): InventoryItemRecord[] {
  const byKey = new Map(records.map((record) => [keyOf(record), record]));
  return keys.map((key) => {
    const record = byKey.get(key);
    if (record === undefined) throw new Error(`No inventory record came back for ${key}`);
    return record;
  });
}

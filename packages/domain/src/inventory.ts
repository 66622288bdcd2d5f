import { LOCALES } from './locale';
import type { Locale } from './locale';

/**
 * Inventory statuses, their labels, the bulkUpdate actions and the bounds of the inventory
 * procedures; their schemas are in @staging/contracts/inventory. Bounds the spec leaves open are
 * recorded in docs/decisions/inventory.md ("Inventory input bounds").
 */

/** The inventory statuses (docs/system.md 3.4); identical to the database enum `InventoryStatus`. */
export const INVENTORY_STATUSES = ['AVAILABLE', 'RESERVED', 'SOLD', 'RENTED'] as const;
export type InventoryStatus = (typeof INVENTORY_STATUSES)[number];
/** What an agent reads for each status; the enum values are for machines. */
export const INVENTORY_STATUS_LABELS: Record<Locale, Record<InventoryStatus, string>> = {
  en: { AVAILABLE: 'Available', RESERVED: 'Reserved', SOLD: 'Sold', RENTED: 'Rented' },
  es: { AVAILABLE: 'Disponible', RESERVED: 'Reservada', SOLD: 'Vendida', RENTED: 'Alquilada' },
};

export function inventoryStatusLabel(status: InventoryStatus, locale: Locale): string {
  return INVENTORY_STATUS_LABELS[locale][status];
}

/**
 * A status as a person types it in a spreadsheet: the enum value or its label in any locale,
 * in any letter case; undefined when it is none of them.
 */
export function parseInventoryStatus(raw: string): InventoryStatus | undefined {
  const wanted = raw.trim().toLocaleLowerCase();
  return INVENTORY_STATUSES.find(
    (status) =>
      status.toLowerCase() === wanted ||
      LOCALES.some((locale) => INVENTORY_STATUS_LABELS[locale][status].toLocaleLowerCase() === wanted),
  );
}

/** The bulkUpdate actions and price change types (docs/system.md 4.4). */
export const BULK_UPDATE_ACTIONS = ['status', 'floor', 'price'] as const;
export const PRICE_CHANGE_TYPES = ['set', 'increase', 'decrease'] as const;
export type BulkUpdateAction = (typeof BULK_UPDATE_ACTIONS)[number];
export type PriceChangeType = (typeof PRICE_CHANGE_TYPES)[number];

/** Limits of the inventory inputs; the ones docs/system.md gives plus the ones we chose. */
export const INVENTORY_LIMITS = {
  unitNumberMaxLength: 100,
  /** A unit's name is a heading and an export column, like a unit number. */
  unitNameMaxLength: 100,
  notesMaxLength: 500,
  bulkCreateMaxItems: 500,
  /** Upper bound of bulkUpdate/bulkDelete ids (docs/system.md 8 shows none): one statement stays small. */
  bulkIdsMax: 1000,
  /**
   * floor: a building level (basements negative, mezzanines fractional). The bound keeps values
   * far from the double range ends, where Prisma's decimal printing of MAX_VALUE overflows float8.
   */
  floorAbsMax: 10_000,
  /** priceAdjustment and amount: what numeric(14,2) holds, so no value can overflow the column. */
  priceAbsMax: 999_999_999_999.99,
} as const;


/**
 * The most items inventory.getUnits answers in one piece: the size it was made for (the benchmark
 * reads 5,000). A property with more answers RESULT_TOO_LARGE; its inventory is read a page at a
 * time with listUnits and listItems (docs/decisions/inventory.md "getUnits has a hard bound").
 */
export const GET_UNITS_MAX_ITEMS = 5000;
/** Items per listItems page: the default and the most a caller may ask for. */
export const LIST_ITEMS_DEFAULT_LIMIT = 100;
export const LIST_ITEMS_MAX_LIMIT = 500;
/** Units per listUnits page: the default and the most a caller may ask for. */
export const LIST_UNITS_DEFAULT_LIMIT = 100;
export const LIST_UNITS_MAX_LIMIT = 500;

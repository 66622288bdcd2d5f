// Typed shortcuts for calling inventory procedures over HTTP in tests.
import type { DeleteUnitResult, GetUnitsResult, InventoryItemRecord, ListItemsResult, ListUnitsResult, PropertyUnitRecord } from '@staging/contracts/inventory';
import { callProcedure } from './test-server';
import type { CallOptions, CallResult } from './test-server';

export const INVENTORY_PROCEDURES = {
  getUnits: 'query',
  create: 'mutation',
  update: 'mutation',
  delete: 'mutation',
  bulkCreate: 'mutation',
  bulkUpdate: 'mutation',
  bulkDelete: 'mutation',
} as const;

export type InventoryProcedure = keyof typeof INVENTORY_PROCEDURES;

/** The procedures that manage units, apart from the item procedures the fuzz tests walk. */
export const UNIT_PROCEDURES = {
  createUnit: 'mutation',
  renameUnit: 'mutation',
  deleteUnit: 'mutation',
} as const;

export type UnitProcedure = keyof typeof UNIT_PROCEDURES;

/** The paginated reads of a property too big for getUnits. */
export const PAGE_PROCEDURES = {
  listUnits: 'query',
  listItems: 'query',
} as const;

export type PageProcedure = keyof typeof PAGE_PROCEDURES;

const KIND_OF = { ...INVENTORY_PROCEDURES, ...UNIT_PROCEDURES, ...PAGE_PROCEDURES };

export interface InventoryOutputs {
  getUnits: GetUnitsResult;
  create: InventoryItemRecord;
  update: InventoryItemRecord;
  delete: InventoryItemRecord;
  bulkCreate: { items: InventoryItemRecord[] };
  bulkUpdate: { items: InventoryItemRecord[] };
  bulkDelete: { itemIds: string[]; count: number };
  createUnit: PropertyUnitRecord;
  renameUnit: PropertyUnitRecord;
  deleteUnit: DeleteUnitResult;
  listUnits: ListUnitsResult;
  listItems: ListItemsResult;
}

export function inventoryClient(baseUrl: string) {
  return function call<P extends InventoryProcedure | UnitProcedure | PageProcedure>(
    procedure: P,
    input: unknown,
    user?: { cookie: string },
    options: Omit<CallOptions, 'cookie'> = {},
  ): Promise<CallResult<InventoryOutputs[P]>> {
    return callProcedure<InventoryOutputs[P]>(baseUrl, KIND_OF[procedure], `inventory.${procedure}`, input, {
      ...options,
      ...(user === undefined ? {} : { cookie: user.cookie }),
    });
  };
}

/** The data of a successful call; a failed call fails the test with the error body. */
export function dataOf<T>(result: CallResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

/** `[httpStatus, appCode]` of a failed call, or `[200, 'OK']`. */
export function outcomeOf(result: CallResult): [number, string] {
  return result.ok ? [result.status, 'OK'] : [result.status, result.error.data.appCode];
}

/** Issue paths of a failed call, joined with dots. */
export function issuePathsOf(result: CallResult): string[] {
  return result.ok ? [] : (result.error.data.issues ?? []).map((issue) => issue.path.join('.'));
}

export const RECORD_KEYS = [
  'createdAt',
  'floor',
  'itemId',
  'notes',
  'priceAdjustment',
  'propertyId',
  'propertyUnitId',
  'status',
  'unitNumber',
  'updatedAt',
];

export const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

import { z } from 'zod';
import { BULK_UPDATE_ACTIONS, INVENTORY_LIMITS, INVENTORY_STATUSES, LIST_ITEMS_DEFAULT_LIMIT, LIST_ITEMS_MAX_LIMIT, LIST_UNITS_DEFAULT_LIMIT, LIST_UNITS_MAX_LIMIT, PRICE_CHANGE_TYPES } from '@staging/domain/inventory';
import { ZEntityId } from './ids';
import type { BulkUpdateAction, InventoryStatus, PriceChangeType } from '@staging/domain/inventory';

/**
 * Input schemas of the inventory procedures (the seven item procedures of docs/system.md 4.4, 2.8,
 * and the three unit procedures) and the record shapes they return. Every object is strict: an
 * unknown key is a BAD_REQUEST, never silently dropped, so a client typo (`unitNo`) cannot turn
 * into a write that ignores the field. Bounds the spec leaves
 * open are recorded in docs/decisions/inventory.md ("Inventory input bounds").
 */

export const ZInventoryStatus = z.enum(INVENTORY_STATUSES);

// Postgres text cannot hold U+0000, and a lone surrogate would be silently replaced by U+FFFD on
// its way to UTF-8; both are rejected so that what is stored is exactly what was sent.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Characters a label must not hold: controls (C0, DEL and C1 such as U+0085), format characters
 * (bidirectional marks, embeddings, overrides and isolates such as U+202E and U+2066–U+2069,
 * zero-width spaces and joiners, U+FEFF) and line or paragraph separators. They are invisible or
 * reorder what is shown, so two labels that read alike could differ, or one could read as another.
 */
const HIDDEN_OR_CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

const STORABLE_TEXT_MESSAGE = 'Must not contain NUL characters or unpaired surrogates';

/**
 * A short label (a unit number, a unit's name): NFKC-normalized (a fullwidth "Ｂ" is "B", a no-break
 * space a space), trimmed, then measured in UTF-16 code units (what JavaScript's `length` and an
 * HTML `maxlength` count). It is shown in lists, headings and the CSV export, so control, format
 * and separator characters are refused rather than removed: the agent sees what was wrong.
 */
function labelSchema(minLength: 0 | 1, max: number) {
  const base = z.string().normalize('NFKC').trim();
  const bounded = minLength === 1 ? base.min(1, 'Must not be empty') : base;
  return bounded
    .max(max, `At most ${max} characters`)
    .refine(
      (value) => !HIDDEN_OR_CONTROL.test(value) && isStorableText(value),
      'Must not contain control characters, invisible formatting characters (zero-width, bidirectional) or unpaired surrogates',
    );
}

/** unitNumber on create and bulkCreate items: 1..100 characters after trimming. */
export const ZUnitNumber = labelSchema(1, INVENTORY_LIMITS.unitNumberMaxLength);
/** unitNumber on update: at most 100 characters (docs/system.md 4.4 gives no minimum on update). */
export const ZUnitNumberUpdate = labelSchema(0, INVENTORY_LIMITS.unitNumberMaxLength);
/** A unit's name on createUnit and renameUnit: 1..100 characters after trimming. */
export const ZUnitName = labelSchema(1, INVENTORY_LIMITS.unitNameMaxLength);

/** Notes are free text kept verbatim (line breaks included); at most 500 characters, or null. */
export const ZNotes = z
  .string()
  .max(INVENTORY_LIMITS.notesMaxLength, `At most ${INVENTORY_LIMITS.notesMaxLength} characters`)
  .refine(isStorableText, STORABLE_TEXT_MESSAGE)
  .nullable();

/** floor: a finite number within ±10,000 (mezzanines are 1.5, basements negative), or null. */
export const ZFloor = z
  .number()
  .min(-INVENTORY_LIMITS.floorAbsMax, `At least -${INVENTORY_LIMITS.floorAbsMax}`)
  .max(INVENTORY_LIMITS.floorAbsMax, `At most ${INVENTORY_LIMITS.floorAbsMax}`)
  .nullable();

const priceBound = z
  .number()
  .min(-INVENTORY_LIMITS.priceAbsMax, `At least -${INVENTORY_LIMITS.priceAbsMax}`)
  .max(INVENTORY_LIMITS.priceAbsMax, `At most ${INVENTORY_LIMITS.priceAbsMax}`);

/** priceAdjustment: a finite number within numeric(14,2), stored rounded to cents; or null. */
export const ZPriceAdjustment = priceBound.nullable();

export const ZGetUnitsInput = z.strictObject({ propertyId: ZEntityId });

/** An opaque page cursor as a previous page's `nextCursor` gave it. */
const ZPageCursor = z.string().min(1).max(512);

export const ZListUnitsInput = z.strictObject({
  propertyId: ZEntityId,
  limit: z.int().min(1).max(LIST_UNITS_MAX_LIMIT).default(LIST_UNITS_DEFAULT_LIMIT),
  cursor: ZPageCursor.nullish(),
});

export const ZListItemsInput = z.strictObject({
  propertyUnitId: ZEntityId,
  limit: z.int().min(1).max(LIST_ITEMS_MAX_LIMIT).default(LIST_ITEMS_DEFAULT_LIMIT),
  cursor: ZPageCursor.nullish(),
});

export const ZCreateItemInput = z.strictObject({
  propertyUnitId: ZEntityId,
  unitNumber: ZUnitNumber,
  floor: ZFloor.optional(),
  status: ZInventoryStatus.optional(),
  priceAdjustment: ZPriceAdjustment.optional(),
  notes: ZNotes.optional(),
});

export const ZUpdateItemInput = z.strictObject({
  itemId: ZEntityId,
  unitNumber: ZUnitNumberUpdate.optional(),
  floor: ZFloor.optional(),
  status: ZInventoryStatus.optional(),
  priceAdjustment: ZPriceAdjustment.optional(),
  notes: ZNotes.optional(),
});

export const ZDeleteItemInput = z.strictObject({ itemId: ZEntityId });

// docs/system.md 4.4 lists no notes on bulkCreate items; they are accepted as on create so that a
// CSV export imported again keeps its notes (docs/decisions/inventory.md "Inventory CSV import and
// export"). Exported so the dashboard's CSV preview checks each row with exactly the server's rules.
export const ZBulkCreateItem = z.strictObject({
  propertyUnitId: ZEntityId.optional(),
  unitNumber: ZUnitNumber,
  floor: ZFloor.optional(),
  status: ZInventoryStatus.optional(),
  priceAdjustment: ZPriceAdjustment.optional(),
  notes: ZNotes.optional(),
});

/** One bulkCreate item after resolution: its unit and where that unit came from. */
export interface ResolvedBulkCreateItem {
  propertyUnitId: string;
  /** 'item' when the item named its unit, 'top' when it inherited the top-level one. */
  unitFrom: 'item' | 'top';
  unitNumber: string;
  floor?: number | null | undefined;
  status?: InventoryStatus | undefined;
  priceAdjustment?: number | null | undefined;
  notes?: string | null | undefined;
}

/**
 * A field that the refinement before a transform requires: zod's types do not carry a refinement
 * into the transform, so this says it, and a value missing here is a bug in that refinement.
 */
function refined<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw new Error(`${field} passed the refinement without a value`);
  return value;
}

/**
 * bulkCreate: an item's own propertyUnitId wins over the top-level one; an item with neither is a
 * BAD_REQUEST at `items.<i>.propertyUnitId`. propertyId, when given, scopes the call: every
 * resolved unit must belong to that property (checked by the use case, which sees the database).
 */
export const ZBulkCreateInput = z
  .strictObject({
    propertyUnitId: ZEntityId.optional(),
    propertyId: ZEntityId.optional(),
    items: z
      .array(ZBulkCreateItem)
      .min(1, 'At least 1 item')
      .max(INVENTORY_LIMITS.bulkCreateMaxItems, `At most ${INVENTORY_LIMITS.bulkCreateMaxItems} items`),
  })
  .superRefine((input, ctx) => {
    if (input.propertyUnitId !== undefined) return;
    input.items.forEach((item, index) => {
      if (item.propertyUnitId === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['items', index, 'propertyUnitId'],
          message: 'Required: give propertyUnitId on the item or at the top level',
        });
      }
    });
  })
  .transform((input) => ({
    propertyId: input.propertyId,
    // Field by field: a rest-and-spread copy per item was most of the parse time of 500 items.
    items: input.items.map(
      (item): ResolvedBulkCreateItem => ({
        propertyUnitId: item.propertyUnitId ?? refined(input.propertyUnitId, 'propertyUnitId'),
        unitFrom: item.propertyUnitId === undefined ? 'top' : 'item',
        unitNumber: item.unitNumber,
        floor: item.floor,
        status: item.status,
        priceAdjustment: item.priceAdjustment,
        notes: item.notes,
      }),
    ),
  }));

/** ids of bulkUpdate/bulkDelete: 1..1000, deduplicated in first-seen order (a set of items). */
export const ZItemIdList = z
  .array(ZEntityId)
  .min(1, 'At least 1 id')
  .max(INVENTORY_LIMITS.bulkIdsMax, `At most ${INVENTORY_LIMITS.bulkIdsMax} ids`)
  .transform((ids) => [...new Set(ids)]);

/** What bulkUpdate does, after validation: exactly the fields its action needs. */
export type BulkUpdateChange =
  | { action: 'status'; status: InventoryStatus }
  | { action: 'floor'; floor: number | null }
  | { action: 'price'; type: PriceChangeType; amount: number };

const FIELDS_OF_ACTION: Record<BulkUpdateAction, readonly ('status' | 'floor' | 'type' | 'amount')[]> = {
  status: ['status'],
  floor: ['floor'],
  price: ['type', 'amount'],
};

/**
 * bulkUpdate: `status` needs status; `floor` needs floor (a number or null); `price` needs type
 * and amount (set: the new priceAdjustment; increase/decrease: added to or subtracted from the
 * current value, null counting as 0). A missing or extra field is named in the issue path.
 */
export const ZBulkUpdateInput = z
  .strictObject({
    ids: ZItemIdList,
    action: z.enum(BULK_UPDATE_ACTIONS),
    status: ZInventoryStatus.optional(),
    floor: ZFloor.optional(),
    type: z.enum(PRICE_CHANGE_TYPES).optional(),
    amount: priceBound.optional(),
  })
  .superRefine((input, ctx) => {
    const needed = FIELDS_OF_ACTION[input.action];
    for (const field of ['status', 'floor', 'type', 'amount'] as const) {
      const present = input[field] !== undefined;
      if (needed.includes(field) && !present) {
        ctx.addIssue({ code: 'custom', path: [field], message: `Required when action is '${input.action}'` });
      } else if (!needed.includes(field) && present) {
        ctx.addIssue({ code: 'custom', path: [field], message: `Not allowed when action is '${input.action}'` });
      }
    }
  })
  .transform((input): { ids: string[]; change: BulkUpdateChange } => {
    switch (input.action) {
      case 'status':
        return { ids: input.ids, change: { action: 'status', status: refined(input.status, 'status') } };
      case 'floor':
        return { ids: input.ids, change: { action: 'floor', floor: refined(input.floor, 'floor') } };
      case 'price':
        return {
          ids: input.ids,
          change: { action: 'price', type: refined(input.type, 'type'), amount: refined(input.amount, 'amount') },
        };
    }
  });

export const ZBulkDeleteInput = z.strictObject({ ids: ZItemIdList });

export const ZCreateUnitInput = z.strictObject({ propertyId: ZEntityId, name: ZUnitName });

export const ZRenameUnitInput = z.strictObject({ propertyUnitId: ZEntityId, name: ZUnitName });

/**
 * deleteUnit removes the unit with its items only when the caller names how many items it expects
 * to go with it (absent: 0, an empty unit); any other count is a CONFLICT carrying the actual one,
 * so nothing is removed that the agent was not told about (docs/decisions/inventory.md "Units of a
 * property").
 */
export const ZDeleteUnitInput = z.strictObject({
  propertyUnitId: ZEntityId,
  expectedItemCount: z.number().int('Must be a whole number').min(0, 'At least 0').optional(),
});

export type GetUnitsInput = z.output<typeof ZGetUnitsInput>;
export type ListUnitsInput = z.output<typeof ZListUnitsInput>;
export type ListItemsInput = z.output<typeof ZListItemsInput>;
export type CreateItemInput = z.output<typeof ZCreateItemInput>;
export type UpdateItemInput = z.output<typeof ZUpdateItemInput>;
export type DeleteItemInput = z.output<typeof ZDeleteItemInput>;
export type BulkCreateInput = z.output<typeof ZBulkCreateInput>;
export type BulkUpdateInput = z.output<typeof ZBulkUpdateInput>;
export type BulkDeleteInput = z.output<typeof ZBulkDeleteInput>;
export type CreateUnitInput = z.output<typeof ZCreateUnitInput>;
export type RenameUnitInput = z.output<typeof ZRenameUnitInput>;
export type DeleteUnitInput = z.output<typeof ZDeleteUnitInput>;

/**
 * An inventory item as every procedure returns it (plain JSON: timestamps are ISO 8601 UTC
 * strings, priceAdjustment a number rounded to cents). Native clients decode exactly this, and
 * every procedure declares its answer with these schemas, so an answer that drifts from the
 * documented shape fails at the server instead of in a client.
 */
export const ZInventoryItemRecord = z.strictObject({
  itemId: z.string(),
  propertyUnitId: z.string(),
  propertyId: z.string(),
  unitNumber: z.string(),
  floor: z.number().nullable(),
  status: ZInventoryStatus,
  priceAdjustment: z.number().nullable(),
  notes: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type InventoryItemRecord = z.infer<typeof ZInventoryItemRecord>;

/** A property unit as createUnit and renameUnit return it; `name` as stored (trimmed). */
export const ZPropertyUnitRecord = z.strictObject({
  propertyUnitId: z.string(),
  propertyId: z.string(),
  name: z.string(),
  createdAt: z.iso.datetime(),
});
export type PropertyUnitRecord = z.infer<typeof ZPropertyUnitRecord>;

/** A property unit with its items, as getUnits returns it. */
export const ZInventoryUnitRecord = z.strictObject({ ...ZPropertyUnitRecord.shape, items: z.array(ZInventoryItemRecord) });
export type InventoryUnitRecord = z.infer<typeof ZInventoryUnitRecord>;

/** deleteUnit: the unit as it was, and how many items went with it. */
export const ZDeleteUnitResult = z.strictObject({ ...ZPropertyUnitRecord.shape, deletedItemCount: z.int().nonnegative() });
export type DeleteUnitResult = z.infer<typeof ZDeleteUnitResult>;

export const ZGetUnitsResult = z.strictObject({ propertyId: z.string(), units: z.array(ZInventoryUnitRecord) });
export type GetUnitsResult = z.infer<typeof ZGetUnitsResult>;

/** listUnits: one page of the property's units; `nextCursor` null on the last page. */
export const ZListUnitsResult = z.strictObject({
  propertyId: z.string(),
  units: z.array(ZPropertyUnitRecord),
  nextCursor: z.string().nullable(),
});
export type ListUnitsResult = z.infer<typeof ZListUnitsResult>;

/** listItems: one page of a unit's items; `nextCursor` null on the last page. */
export const ZListItemsResult = z.strictObject({
  propertyUnitId: z.string(),
  items: z.array(ZInventoryItemRecord),
  nextCursor: z.string().nullable(),
});
export type ListItemsResult = z.infer<typeof ZListItemsResult>;

export const ZBulkItemsResult = z.strictObject({ items: z.array(ZInventoryItemRecord) });
export type BulkItemsResult = z.infer<typeof ZBulkItemsResult>;

/** bulkDelete: the deleted ids, deduplicated, in the order they were given. */
export const ZBulkDeleteResult = z.strictObject({ itemIds: z.array(z.string()), count: z.int().nonnegative() });
export type BulkDeleteResult = z.infer<typeof ZBulkDeleteResult>;

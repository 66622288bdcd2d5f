'use client';

import { useMutation } from '@tanstack/react-query';
import { useState, type InputHTMLAttributes } from 'react';
import type { InventoryItemRecord } from '@staging/contracts/inventory';
import type { InventoryStatus } from '@staging/domain/inventory';
import { useFocusTarget } from '@/client/use-focus-target';
import { useTRPC } from '@/client/trpc';
import { useDashboardText } from '@/client/use-dashboard-text';
import { AlertMessage } from '@/components/alert-message';
import { useInventoryCache } from './inventory-cache';
import { parseNumberField } from './number-input';
import { InventoryStatusOptions } from '../vocabulary-options';
import { ItemCells } from './item-cells';

interface ItemRowProps {
  item: InventoryItemRecord;
  propertyId: string;
  selected: boolean;
  onToggle: (itemId: string, selected: boolean) => void;
  onDelete: (item: InventoryItemRecord) => void;
}

interface Draft {
  unitNumber: string;
  floor: string;
  status: InventoryStatus;
  priceAdjustment: string;
  notes: string;
}

function draftOf(item: InventoryItemRecord): Draft {
  return {
    unitNumber: item.unitNumber,
    floor: item.floor === null ? '' : String(item.floor),
    status: item.status,
    priceAdjustment: item.priceAdjustment === null ? '' : String(item.priceAdjustment),
    notes: item.notes ?? '',
  };
}

interface DraftInputCellProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> {
  field: Exclude<keyof Draft, 'status'>;
  /** The column name, shown beside the input when the table collapses into cards on a phone. */
  header: string;
  draft: Draft;
  setDraft: (draft: Draft) => void;
  errorOf: (field: string) => string | undefined;
  errorIdPrefix: string;
}

/** One text or number cell of the inline edit form, with the server's message for that field under it. */
function DraftInputCell({ field, header, draft, setDraft, errorOf, errorIdPrefix, ...input }: DraftInputCellProps) {
  const error = errorOf(field);
  const errorId = `${errorIdPrefix}-${field}`;
  return (
    <td data-label={header}>
      <input
        {...input}
        value={draft[field]}
        aria-invalid={error !== undefined}
        aria-describedby={error === undefined ? undefined : errorId}
        onChange={(event) => setDraft({ ...draft, [field]: event.target.value })}
      />
      {error !== undefined && (
        <span className="field-error" id={errorId}>
          {error}
        </span>
      )}
    </td>
  );
}

/** One item: read-only cells, or inputs while it is edited inline (Save sends inventory.update). */
export function ItemRow({ item, propertyId, selected, onToggle, onDelete }: ItemRowProps) {
  const trpc = useTRPC();
  const cache = useInventoryCache(propertyId);
  const { t, tc, errorSentence, fieldError: issueAt } = useDashboardText('inventory');
  const [draft, setDraft] = useState<Draft | null>(null);
  const [localError, setLocalError] = useState<string | undefined>();
  // Save and Cancel leave with the edit form; focus goes back to the row's Edit button.
  const editButton = useFocusTarget<HTMLButtonElement>();
  const update = useMutation(
    trpc.inventory.update.mutationOptions({
      onSuccess: cache.afterSave(() => {
        setDraft(null);
        editButton.moveFocus();
      }),
    }),
  );
  const label = item.unitNumber;
  const fieldError = (field: string) => (update.isError ? issueAt(update.error, field) : undefined);
  const rowError = update.isError && !['unitNumber', 'floor', 'priceAdjustment', 'notes', 'status'].some((f) => fieldError(f) !== undefined)
    ? errorSentence(update.error)
    : undefined;

  if (draft === null) {
    return (
      <tr data-testid="inventory-row" data-unit-number={item.unitNumber}>
        <td>
          <input
            type="checkbox"
            aria-label={t('select', { unit: label })}
            checked={selected}
            onChange={(event) => onToggle(item.itemId, event.target.checked)}
          />
        </td>
        <ItemCells item={item} />
        <td>
          <div className="row">
            <button
              type="button"
              className="button button-small"
              ref={editButton.ref}
              onClick={() => {
                update.reset();
                setLocalError(undefined);
                setDraft(draftOf(item));
              }}
            >
              {t('edit')}<span className="visually-hidden"> {label}</span>
            </button>
            <button type="button" className="button button-small" onClick={() => onDelete(item)}>
              {tc('delete')}<span className="visually-hidden"> {label}</span>
            </button>
          </div>
        </td>
      </tr>
    );
  }

  const save = () => {
    const floor = parseNumberField(draft.floor);
    const priceAdjustment = parseNumberField(draft.priceAdjustment);
    if (floor === undefined || priceAdjustment === undefined) {
      setLocalError(floor === undefined ? t('floorNotNumber') : t('priceNotNumber'));
      return;
    }
    setLocalError(undefined);
    update.mutate({
      itemId: item.itemId,
      unitNumber: draft.unitNumber,
      floor,
      status: draft.status,
      priceAdjustment,
      notes: draft.notes.trim() === '' ? null : draft.notes,
    });
  };
  const cell = { draft, setDraft, errorOf: fieldError, errorIdPrefix: `edit-error-${item.itemId}` };

  return (
    <tr data-testid="inventory-row" data-unit-number={item.unitNumber} data-editing="true">
      <td>
        <input type="checkbox" aria-label={t('select', { unit: label })} checked={selected} onChange={(event) => onToggle(item.itemId, event.target.checked)} />
      </td>
      <DraftInputCell {...cell} field="unitNumber" header={t('unitNumber')} aria-label={t('unitNumberOf', { unit: label })} type="text" maxLength={100} />
      <DraftInputCell {...cell} field="floor" header={t('floor')} aria-label={t('floorOf', { unit: label })} type="number" step="any" />
      <td data-label={t('status')}>
        <select
          aria-label={t('statusOf', { unit: label })}
          value={draft.status}
          onChange={(event) => setDraft({ ...draft, status: event.target.value as InventoryStatus })}
        >
          <InventoryStatusOptions />
        </select>
      </td>
      <DraftInputCell
        {...cell}
        field="priceAdjustment"
        header={t('priceAdjustment')}
        aria-label={t('priceAdjustmentOf', { unit: label })}
        type="number"
        step="0.01"
      />
      <DraftInputCell {...cell} field="notes" header={t('notes')} aria-label={t('notesOf', { unit: label })} type="text" maxLength={500} />
      <td>
        <div className="row">
          <button type="button" className="button button-small button-primary" onClick={save} disabled={update.isPending}>
            {t('save')}<span className="visually-hidden"> {label}</span>
          </button>
          <button
            type="button"
            className="button button-small"
            onClick={() => {
              setDraft(null);
              editButton.moveFocus();
            }}
            disabled={update.isPending}
          >
            {tc('cancel')}<span className="visually-hidden"> {t('cancelEditing', { unit: label })}</span>
          </button>
        </div>
        <AlertMessage message={localError ?? rowError} />
      </td>
    </tr>
  );
}

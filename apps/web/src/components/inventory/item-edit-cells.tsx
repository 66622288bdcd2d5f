'use client';

import type { InputHTMLAttributes } from 'react';
import type { InventoryItemRecord } from '@staging/contracts/inventory';
import { INVENTORY_STATUSES } from '@staging/domain/inventory';
import { useDashboardText } from '@/client/use-dashboard-text';
import { AlertMessage } from '@/components/alert-message';
import { InventoryStatusOptions } from '../vocabulary-options';
import type { ItemDraft } from './item-draft';
import { onChoiceOf } from './select-choice';
import type { ItemEdit } from './use-item-edit';

interface DraftInputCellProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> {
  field: Exclude<keyof ItemDraft, 'status'>;
  /** The column name, shown beside the input when the table collapses into cards on a phone. */
  header: string;
  draft: ItemDraft;
  setDraft: (draft: ItemDraft) => void;
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

interface ItemEditCellsProps {
  item: InventoryItemRecord;
  draft: ItemDraft;
  edit: ItemEdit;
}

/** The item as an inline form: an input per field, and Save and Cancel. */
export function ItemEditCells({ item, draft, edit }: ItemEditCellsProps) {
  const { t, tc } = useDashboardText('inventory');
  const label = item.unitNumber;
  const cell = { draft, setDraft: edit.setDraft, errorOf: edit.fieldError, errorIdPrefix: `edit-error-${item.itemId}` };
  return (
    <>
      <DraftInputCell {...cell} field="unitNumber" header={t('unitNumber')} aria-label={t('unitNumberOf', { unit: label })} type="text" maxLength={100} />
      <DraftInputCell {...cell} field="floor" header={t('floor')} aria-label={t('floorOf', { unit: label })} type="number" step="any" />
      <td data-label={t('status')}>
        <select aria-label={t('statusOf', { unit: label })} value={draft.status} onChange={onChoiceOf(INVENTORY_STATUSES, (status) => edit.setDraft({ ...draft, status }))}>
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
          <button type="button" className="button button-small button-primary" onClick={edit.save} disabled={edit.isPending}>
            {t('save')}<span className="visually-hidden"> {label}</span>
          </button>
          <button type="button" className="button button-small" onClick={edit.cancel} disabled={edit.isPending}>
            {tc('cancel')}<span className="visually-hidden"> {t('cancelEditing', { unit: label })}</span>
          </button>
        </div>
        <AlertMessage message={edit.rowError} />
      </td>
    </>
  );
}

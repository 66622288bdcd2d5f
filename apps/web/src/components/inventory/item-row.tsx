'use client';

import { useMutation } from '@tanstack/react-query';
import { useLocale, useTranslations } from 'next-intl';
import { useState } from 'react';
import { inventoryStatusLabel, type InventoryItemRecord, type InventoryStatus } from '@staging/domain/inventory';
import { useFocusTarget } from '@/client/use-focus-target';
import { useTRPC } from '@/client/trpc';
import { useErrorSentence } from '@/client/use-error-sentence';
import { issueFor } from '@/lib/api-errors';
import { formatPriceAdjustment } from '@/lib/format';
import { useInventoryCache } from './inventory-cache';
import { parseNumberField } from './number-input';
import { InventoryStatusOptions } from '../vocabulary-options';

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

/** One item: read-only cells, or inputs while it is edited inline (Save sends inventory.update). */
export function ItemRow({ item, propertyId, selected, onToggle, onDelete }: ItemRowProps) {
  const trpc = useTRPC();
  const cache = useInventoryCache(propertyId);
  const t = useTranslations('inventory');
  const tc = useTranslations('common');
  const locale = useLocale();
  const errorSentence = useErrorSentence();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [localError, setLocalError] = useState<string | undefined>();
  // Save and Cancel leave with the edit form; focus goes back to the row's Edit button.
  const editButton = useFocusTarget<HTMLButtonElement>();
  const update = useMutation(
    trpc.inventory.update.mutationOptions({
      onSuccess: (record) => {
        cache.upsert([record]);
        setDraft(null);
        editButton.moveFocus();
      },
    }),
  );
  const label = item.unitNumber;
  const fieldError = (field: string) => (update.isError ? issueFor(update.error, field) : undefined);
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
        <td data-label={t('unitNumber')}>{item.unitNumber}</td>
        <td className="num" data-label={t('floor')}>
          {item.floor ?? '—'}
        </td>
        <td data-label={t('status')}>
          <span className="status">{inventoryStatusLabel(item.status, locale)}</span>
        </td>
        <td className="num" data-testid="price" data-label={t('priceAdjustment')}>
          {formatPriceAdjustment(item.priceAdjustment, locale)}
        </td>
        <td data-label={t('notes')}>{item.notes ?? ''}</td>
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
  const errorId = `edit-error-${item.itemId}`;
  const described = (field: string) => (fieldError(field) === undefined ? undefined : `${errorId}-${field}`);

  return (
    <tr data-testid="inventory-row" data-unit-number={item.unitNumber} data-editing="true">
      <td>
        <input type="checkbox" aria-label={t('select', { unit: label })} checked={selected} onChange={(event) => onToggle(item.itemId, event.target.checked)} />
      </td>
      <td data-label={t('unitNumber')}>
        <input
          type="text"
          aria-label={t('unitNumberOf', { unit: label })}
          value={draft.unitNumber}
          maxLength={100}
          aria-invalid={fieldError('unitNumber') !== undefined}
          aria-describedby={described('unitNumber')}
          onChange={(event) => setDraft({ ...draft, unitNumber: event.target.value })}
        />
        {fieldError('unitNumber') !== undefined && (
          <span className="field-error" id={`${errorId}-unitNumber`}>
            {fieldError('unitNumber')}
          </span>
        )}
      </td>
      <td data-label={t('floor')}>
        <input
          type="number"
          step="any"
          aria-label={t('floorOf', { unit: label })}
          value={draft.floor}
          aria-invalid={fieldError('floor') !== undefined}
          aria-describedby={described('floor')}
          onChange={(event) => setDraft({ ...draft, floor: event.target.value })}
        />
        {fieldError('floor') !== undefined && (
          <span className="field-error" id={`${errorId}-floor`}>
            {fieldError('floor')}
          </span>
        )}
      </td>
      <td data-label={t('status')}>
        <select
          aria-label={t('statusOf', { unit: label })}
          value={draft.status}
          onChange={(event) => setDraft({ ...draft, status: event.target.value as InventoryStatus })}
        >
          <InventoryStatusOptions />
        </select>
      </td>
      <td data-label={t('priceAdjustment')}>
        <input
          type="number"
          step="0.01"
          aria-label={t('priceAdjustmentOf', { unit: label })}
          value={draft.priceAdjustment}
          aria-invalid={fieldError('priceAdjustment') !== undefined}
          aria-describedby={described('priceAdjustment')}
          onChange={(event) => setDraft({ ...draft, priceAdjustment: event.target.value })}
        />
        {fieldError('priceAdjustment') !== undefined && (
          <span className="field-error" id={`${errorId}-priceAdjustment`}>
            {fieldError('priceAdjustment')}
          </span>
        )}
      </td>
      <td data-label={t('notes')}>
        <input
          type="text"
          aria-label={t('notesOf', { unit: label })}
          value={draft.notes}
          maxLength={500}
          aria-invalid={fieldError('notes') !== undefined}
          aria-describedby={described('notes')}
          onChange={(event) => setDraft({ ...draft, notes: event.target.value })}
        />
        {fieldError('notes') !== undefined && (
          <span className="field-error" id={`${errorId}-notes`}>
            {fieldError('notes')}
          </span>
        )}
      </td>
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
        {(localError ?? rowError) !== undefined && (
          <p className="field-error" role="alert">
            {localError ?? rowError}
          </p>
        )}
      </td>
    </tr>
  );
}

'use client';

import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { type InventoryStatus } from '@staging/domain/inventory';
import { useFocusTarget } from '@/client/use-focus-target';
import { useTRPC } from '@/client/trpc';
import { useDashboardText } from '@/client/use-dashboard-text';
import { AlertMessage } from '@/components/alert-message';
import { useInventoryCache } from './inventory-cache';
import { parseNumberField } from './number-input';
import { InventoryStatusOptions } from '../vocabulary-options';

const EMPTY = { unitNumber: '', floor: '', status: 'AVAILABLE' as InventoryStatus, priceAdjustment: '', notes: '' };
const FIELDS = ['unitNumber', 'floor', 'status', 'priceAdjustment', 'notes'] as const;

/** Inline "add item" form under a unit's table (inventory.create). */
export function CreateItemForm({ propertyId, unitId, unitName }: { propertyId: string; unitId: string; unitName: string }) {
  const trpc = useTRPC();
  const cache = useInventoryCache(propertyId);
  const id = useId();
  const { t, errorSentence, fieldError } = useDashboardText('inventory');
  const [form, setForm] = useState(EMPTY);
  const [localError, setLocalError] = useState<{ field: string; message: string } | undefined>();
  const [added, setAdded] = useState<string | undefined>();
  // The confirmation takes focus, so a keyboard user hears what was added and Shift+Tab is back
  // at the form for the next item.
  const addedFocus = useFocusTarget<HTMLParagraphElement>();
  const create = useMutation(
    trpc.inventory.create.mutationOptions({
      onSuccess: cache.afterSave((record) => {
        setForm(EMPTY);
        setAdded(record.unitNumber);
        addedFocus.moveFocus();
      }),
    }),
  );

  const errorFor = (field: string): string | undefined => {
    if (localError?.field === field) return localError.message;
    return create.isError ? fieldError(create.error, field) : undefined;
  };
  const generalError =
    create.isError && FIELDS.every((field) => fieldError(create.error, field) === undefined) ? errorSentence(create.error) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const floor = parseNumberField(form.floor);
    const priceAdjustment = parseNumberField(form.priceAdjustment);
    if (floor === undefined) return setLocalError({ field: 'floor', message: t('mustBeNumber') });
    if (priceAdjustment === undefined) return setLocalError({ field: 'priceAdjustment', message: t('mustBeNumber') });
    setLocalError(undefined);
    setAdded(undefined);
    create.mutate({
      propertyUnitId: unitId,
      unitNumber: form.unitNumber,
      floor,
      status: form.status,
      priceAdjustment,
      notes: form.notes.trim() === '' ? null : form.notes,
    });
  };

  // Each field is labelled with the catalogue text of its name ("unitNumber": "Unit number").
  const field = (name: (typeof FIELDS)[number], input: React.ReactElement) => {
    const error = errorFor(name);
    return (
      <div className="field">
        <label htmlFor={`${id}-${name}`}>{t(name)}</label>
        {input}
        {error !== undefined && (
          <span className="field-error" id={`${id}-${name}-error`}>
            {error}
          </span>
        )}
      </div>
    );
  };
  const inputProps = (name: (typeof FIELDS)[number]) => ({
    id: `${id}-${name}`,
    'aria-invalid': errorFor(name) !== undefined,
    'aria-describedby': errorFor(name) === undefined ? undefined : `${id}-${name}-error`,
  });

  return (
    <form className="toolbar" noValidate onSubmit={submit} aria-label={t('addTo', { unit: unitName })}>
      <h3 className="small" style={{ flexBasis: '100%', margin: 0 }}>
        {t('addTo', { unit: unitName })}
      </h3>
      {field(
        'unitNumber',
        <input {...inputProps('unitNumber')} type="text" required maxLength={100} value={form.unitNumber} onChange={(e) => setForm({ ...form, unitNumber: e.target.value })} />,
      )}
      {field('floor', <input {...inputProps('floor')} type="number" step="any" value={form.floor} onChange={(e) => setForm({ ...form, floor: e.target.value })} />)}
      {field(
        'status',
        <select {...inputProps('status')} value={form.status} onChange={(e) => setForm({ ...form, status: e.target.value as InventoryStatus })}>
          <InventoryStatusOptions />
        </select>,
      )}
      {field(
        'priceAdjustment',
        <input {...inputProps('priceAdjustment')} type="number" step="0.01" value={form.priceAdjustment} onChange={(e) => setForm({ ...form, priceAdjustment: e.target.value })} />,
      )}
      {field('notes', <input {...inputProps('notes')} type="text" maxLength={500} value={form.notes} onChange={(e) => setForm({ ...form, notes: e.target.value })} />)}
      <button type="submit" className="button button-primary" disabled={create.isPending}>
        {t('addItem')}<span className="visually-hidden"> {t('addItemTo', { unit: unitName })}</span>
      </button>
      <AlertMessage message={generalError} />
      <p role="status" ref={addedFocus.ref} tabIndex={-1} className="small" style={{ flexBasis: '100%', margin: 0 }} data-testid="item-added">
        {added === undefined ? '' : t('added', { unit: added, unitName })}
      </p>
    </form>
  );
}

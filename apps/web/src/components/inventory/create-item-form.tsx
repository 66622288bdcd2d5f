'use client';

import { useId, type ReactElement } from 'react';
import { INVENTORY_STATUSES } from '@staging/domain/inventory';
import { useDashboardText } from '@/client/use-dashboard-text';
import { AlertMessage } from '@/components/alert-message';
import { InventoryStatusOptions } from '../vocabulary-options';
import type { ItemDraft } from './item-draft';
import { onChoiceOf } from './select-choice';
import { useCreateItem } from './use-create-item';

/** What ties a field's control to its label and to the message under it. */
interface ControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

interface ItemFieldProps {
  /** Prefix of the form's ids. */
  id: string;
  name: keyof ItemDraft;
  errorOf: (field: keyof ItemDraft) => string | undefined;
  children: (control: ControlProps) => ReactElement;
}

/** One field of the form, labelled with the catalogue text of its name ("unitNumber": "Unit number"). */
function ItemField({ id, name, errorOf, children }: ItemFieldProps) {
  const { t } = useDashboardText('inventory');
  const error = errorOf(name);
  const errorId = `${id}-${name}-error`;
  return (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{t(name)}</label>
      {children({ id: `${id}-${name}`, 'aria-invalid': error !== undefined, 'aria-describedby': error === undefined ? undefined : errorId })}
      {error !== undefined && (
        <span className="field-error" id={errorId}>
          {error}
        </span>
      )}
    </div>
  );
}

/** Inline "add item" form under a unit's table (inventory.create). */
export function CreateItemForm({ propertyId, unitId, unitName }: { propertyId: string; unitId: string; unitName: string }) {
  const id = useId();
  const { t } = useDashboardText('inventory');
  const { form, edit, ...create } = useCreateItem(propertyId, unitId);
  const field = { id, errorOf: create.errorOf };

  return (
    <form className="toolbar" noValidate onSubmit={create.submit} aria-label={t('addTo', { unit: unitName })}>
      <h3 className="small" style={{ flexBasis: '100%', margin: 0 }}>
        {t('addTo', { unit: unitName })}
      </h3>
      <ItemField {...field} name="unitNumber">
        {(control) => <input {...control} type="text" required maxLength={100} value={form.unitNumber} onChange={(e) => edit({ unitNumber: e.target.value })} />}
      </ItemField>
      <ItemField {...field} name="floor">
        {(control) => <input {...control} type="number" step="any" value={form.floor} onChange={(e) => edit({ floor: e.target.value })} />}
      </ItemField>
      <ItemField {...field} name="status">
        {(control) => (
          <select {...control} value={form.status} onChange={onChoiceOf(INVENTORY_STATUSES, (status) => edit({ status }))}>
            <InventoryStatusOptions />
          </select>
        )}
      </ItemField>
      <ItemField {...field} name="priceAdjustment">
        {(control) => <input {...control} type="number" step="0.01" value={form.priceAdjustment} onChange={(e) => edit({ priceAdjustment: e.target.value })} />}
      </ItemField>
      <ItemField {...field} name="notes">
        {(control) => <input {...control} type="text" maxLength={500} value={form.notes} onChange={(e) => edit({ notes: e.target.value })} />}
      </ItemField>
      <button type="submit" className="button button-primary" disabled={create.isPending}>
        {t('addItem')}<span className="visually-hidden"> {t('addItemTo', { unit: unitName })}</span>
      </button>
      <AlertMessage message={create.generalError} />
      <p role="status" ref={create.addedRef} tabIndex={-1} className="small" style={{ flexBasis: '100%', margin: 0 }} data-testid="item-added">
        {create.added === undefined ? '' : t('added', { unit: create.added, unitName })}
      </p>
    </form>
  );
}

'use client';

import type { FormEvent } from 'react';
import { BULK_UPDATE_ACTIONS, INVENTORY_STATUSES, PRICE_CHANGE_TYPES, type PriceChangeType } from '@staging/domain/inventory';
import { useDashboardText } from '@/client/use-dashboard-text';
import { InventoryStatusOptions } from '../vocabulary-options';
import { onChoiceOf } from './select-choice';
import type { BulkChange, BulkUpdate } from './use-bulk-update';

const PRICE_LABEL_KEYS = { set: 'priceSet', increase: 'priceIncrease', decrease: 'priceDecrease' } as const satisfies Record<PriceChangeType, string>;

interface ChangeFieldsProps {
  /** Prefix of the fields' ids. */
  id: string;
  change: BulkChange;
  edit: (change: Partial<BulkChange>) => void;
}

/** The value the chosen action sets: a status, a floor, or a price change and its amount. */
function ChangeValueFields({ id, change, edit }: ChangeFieldsProps) {
  const { t } = useDashboardText('inventory');
  if (change.action === 'status') {
    return (
      <div className="field">
        <label htmlFor={`${id}-status`}>{t('newStatus')}</label>
        <select id={`${id}-status`} value={change.status} onChange={onChoiceOf(INVENTORY_STATUSES, (status) => edit({ status }))}>
          <InventoryStatusOptions />
        </select>
      </div>
    );
  }
  if (change.action === 'floor') {
    return (
      <div className="field">
        <label htmlFor={`${id}-floor`}>{t('newFloor')}</label>
        <input id={`${id}-floor`} type="number" step="any" value={change.floor} onChange={(event) => edit({ floor: event.target.value })} />
      </div>
    );
  }
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-price-type`}>{t('priceChange')}</label>
        <select id={`${id}-price-type`} value={change.priceType} onChange={onChoiceOf(PRICE_CHANGE_TYPES, (priceType) => edit({ priceType }))}>
          {PRICE_CHANGE_TYPES.map((value) => (
            <option key={value} value={value}>
              {t(PRICE_LABEL_KEYS[value])}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-amount`}>{t('amount')}</label>
        <input id={`${id}-amount`} type="number" step="0.01" value={change.amount} onChange={(event) => edit({ amount: event.target.value })} />
      </div>
    </>
  );
}

interface BulkUpdateFormProps {
  /** Prefix of the fields' ids. */
  id: string;
  /** How many items are selected: with none, there is nothing to apply to. */
  count: number;
  update: BulkUpdate;
  onSubmit: (event: FormEvent) => void;
}

/** The bulk change form: which field to change, its new value, and Apply. */
export function BulkUpdateForm({ id, count, update, onSubmit }: BulkUpdateFormProps) {
  const { t } = useDashboardText('inventory');
  return (
    <form className="row" noValidate onSubmit={onSubmit} aria-label={t('bulkForm')} style={{ alignItems: 'flex-end' }}>
      <div className="field">
        <label htmlFor={`${id}-action`}>{t('change')}</label>
        <select id={`${id}-action`} value={update.change.action} onChange={onChoiceOf(BULK_UPDATE_ACTIONS, (action) => update.edit({ action }))}>
          <option value="status">{t('status')}</option>
          <option value="floor">{t('floor')}</option>
          <option value="price">{t('priceAdjustment')}</option>
        </select>
      </div>
      <ChangeValueFields id={id} change={update.change} edit={update.edit} />
      <button type="submit" className="button button-primary" disabled={count === 0 || update.isPending}>
        {t('applyToSelected')}
      </button>
    </form>
  );
}

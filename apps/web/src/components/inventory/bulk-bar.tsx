'use client';

import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { PRICE_CHANGE_TYPES, type InventoryStatus, type PriceChangeType } from '@staging/domain/inventory';
import { useFocusTarget } from '@/client/use-focus-target';
import { useTRPC } from '@/client/trpc';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { useDashboardText } from '@/client/use-dashboard-text';
import { AlertMessage } from '@/components/alert-message';
import { useInventoryCache } from './inventory-cache';
import { parseNumberField } from './number-input';
import { InventoryStatusOptions } from '../vocabulary-options';

type Action = 'status' | 'floor' | 'price';

const PRICE_LABEL_KEYS = { set: 'priceSet', increase: 'priceIncrease', decrease: 'priceDecrease' } as const satisfies Record<PriceChangeType, string>;

/** Actions on the selected items: bulk status / floor / price, and bulk delete with confirmation. */
export function BulkBar({ propertyId, selectedIds, onDone }: { propertyId: string; selectedIds: string[]; onDone: (deleted: boolean) => void }) {
  const trpc = useTRPC();
  const cache = useInventoryCache(propertyId);
  const id = useId();
  const { t, errorSentence } = useDashboardText('inventory');
  const [action, setAction] = useState<Action>('status');
  const [status, setStatus] = useState<InventoryStatus>('AVAILABLE');
  const [floor, setFloor] = useState('');
  const [priceType, setPriceType] = useState<PriceChangeType>('increase');
  const [amount, setAmount] = useState('');
  const [localError, setLocalError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<string | undefined>();
  // The outcome takes focus: after a bulk delete the dialog closes onto a now disabled button.
  const messageFocus = useFocusTarget<HTMLParagraphElement>();

  const bulkUpdate = useMutation(
    trpc.inventory.bulkUpdate.mutationOptions({
      onSuccess: (result) => {
        cache.upsert(result.items);
        setMessage(t('updated', { count: result.items.length }));
        messageFocus.moveFocus();
        onDone(false);
      },
    }),
  );
  const bulkDelete = useMutation(
    trpc.inventory.bulkDelete.mutationOptions({
      onSuccess: (result) => {
        cache.remove(result.itemIds);
        setConfirming(false);
        setMessage(t('deleted', { count: result.count }));
        messageFocus.moveFocus();
        onDone(true);
      },
    }),
  );

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setMessage(undefined);
    setLocalError(undefined);
    bulkDelete.reset();
    if (action === 'status') return bulkUpdate.mutate({ ids: selectedIds, action, status });
    if (action === 'floor') {
      const value = parseNumberField(floor);
      if (value === undefined) return setLocalError(t('bulkFloorInvalid'));
      return bulkUpdate.mutate({ ids: selectedIds, action, floor: value });
    }
    const value = parseNumberField(amount);
    if (value === undefined || value === null) return setLocalError(t('enterAmount'));
    return bulkUpdate.mutate({ ids: selectedIds, action, type: priceType, amount: value });
  };

  const count = selectedIds.length;
  const updateError = localError ?? (bulkUpdate.isError ? errorSentence(bulkUpdate.error) : undefined);

  return (
    <section className="toolbar" aria-labelledby={`${id}-title`} data-testid="bulk-bar">
      <h2 id={`${id}-title`} className="visually-hidden">
        {t('bulkTitle')}
      </h2>
      <p aria-live="polite" style={{ margin: 0, alignSelf: 'center' }}>
        {t.rich('selectedCount', { count, strong: (chunks) => <strong>{chunks}</strong> })}
      </p>
      <form className="row" noValidate onSubmit={apply} aria-label={t('bulkForm')} style={{ alignItems: 'flex-end' }}>
        <div className="field">
          <label htmlFor={`${id}-action`}>{t('change')}</label>
          <select id={`${id}-action`} value={action} onChange={(event) => setAction(event.target.value as Action)}>
            <option value="status">{t('status')}</option>
            <option value="floor">{t('floor')}</option>
            <option value="price">{t('priceAdjustment')}</option>
          </select>
        </div>
        {action === 'status' && (
          <div className="field">
            <label htmlFor={`${id}-status`}>{t('newStatus')}</label>
            <select id={`${id}-status`} value={status} onChange={(event) => setStatus(event.target.value as InventoryStatus)}>
              <InventoryStatusOptions />
            </select>
          </div>
        )}
        {action === 'floor' && (
          <div className="field">
            <label htmlFor={`${id}-floor`}>{t('newFloor')}</label>
            <input id={`${id}-floor`} type="number" step="any" value={floor} onChange={(event) => setFloor(event.target.value)} />
          </div>
        )}
        {action === 'price' && (
          <>
            <div className="field">
              <label htmlFor={`${id}-price-type`}>{t('priceChange')}</label>
              <select id={`${id}-price-type`} value={priceType} onChange={(event) => setPriceType(event.target.value as PriceChangeType)}>
                {PRICE_CHANGE_TYPES.map((value) => (
                  <option key={value} value={value}>
                    {t(PRICE_LABEL_KEYS[value])}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${id}-amount`}>{t('amount')}</label>
              <input id={`${id}-amount`} type="number" step="0.01" value={amount} onChange={(event) => setAmount(event.target.value)} />
            </div>
          </>
        )}
        <button type="submit" className="button button-primary" disabled={count === 0 || bulkUpdate.isPending}>
          {t('applyToSelected')}
        </button>
      </form>
      <button
        type="button"
        className="button button-danger"
        disabled={count === 0}
        onClick={() => {
          setMessage(undefined);
          bulkDelete.reset();
          setConfirming(true);
        }}
      >
        {t('deleteSelected')}
      </button>
      <AlertMessage message={updateError} style={{ flexBasis: '100%' }} />
      {message !== undefined && (
        <p className="alert alert-success" role="status" ref={messageFocus.ref} tabIndex={-1} style={{ flexBasis: '100%' }}>
          {message}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        title={t('bulkDeleteTitle', { count })}
        confirmLabel={t('bulkDeleteConfirm', { count })}
        danger
        busy={bulkDelete.isPending}
        error={bulkDelete.isError ? errorSentence(bulkDelete.error) : undefined}
        onConfirm={() => bulkDelete.mutate({ ids: selectedIds })}
        onCancel={() => setConfirming(false)}
      >
        <p>{t('bulkDeleteBody')}</p>
      </ConfirmDialog>
    </section>
  );
}

'use client';

import { useId, useState, type FormEvent } from 'react';
import { useFocusTarget } from '@/client/use-focus-target';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { useDashboardText } from '@/client/use-dashboard-text';
import { AlertMessage } from '@/components/alert-message';
import { BulkUpdateForm } from './bulk-update-form';
import { useBulkDelete } from './use-bulk-delete';
import { useBulkUpdate } from './use-bulk-update';

/** Actions on the selected items: bulk status / floor / price, and bulk delete with confirmation. */
export function BulkBar({ propertyId, selectedIds, onDone }: { propertyId: string; selectedIds: string[]; onDone: (deleted: boolean) => void }) {
  const id = useId();
  const { t, errorSentence } = useDashboardText('inventory');
  const [message, setMessage] = useState<string | undefined>();
  // The outcome takes focus: after a bulk delete the dialog closes onto a now disabled button.
  const messageFocus = useFocusTarget<HTMLParagraphElement>();
  const update = useBulkUpdate(propertyId, (count) => {
    setMessage(t('updated', { count }));
    messageFocus.moveFocus();
    onDone(false);
  });
  const remove = useBulkDelete(propertyId, (count) => {
    setMessage(t('deleted', { count }));
    messageFocus.moveFocus();
    onDone(true);
  });

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setMessage(undefined);
    remove.reset();
    update.apply(selectedIds);
  };

  const count = selectedIds.length;

  return (
    <section className="toolbar" aria-labelledby={`${id}-title`} data-testid="bulk-bar">
      <h2 id={`${id}-title`} className="visually-hidden">
        {t('bulkTitle')}
      </h2>
      <p aria-live="polite" style={{ margin: 0, alignSelf: 'center' }}>
        {t.rich('selectedCount', { count, strong: (chunks) => <strong>{chunks}</strong> })}
      </p>
      <BulkUpdateForm id={id} count={count} update={update} onSubmit={apply} />
      <button
        type="button"
        className="button button-danger"
        disabled={count === 0}
        onClick={() => {
          setMessage(undefined);
          remove.ask();
        }}
      >
        {t('deleteSelected')}
      </button>
      <AlertMessage message={update.error} style={{ flexBasis: '100%' }} />
      {message !== undefined && (
        <p className="alert alert-success" role="status" ref={messageFocus.ref} tabIndex={-1} style={{ flexBasis: '100%' }}>
          {message}
        </p>
      )}
      <ConfirmDialog
        open={remove.confirming}
        title={t('bulkDeleteTitle', { count })}
        confirmLabel={t('bulkDeleteConfirm', { count })}
        danger
        busy={remove.isPending}
        error={remove.error === undefined ? undefined : errorSentence(remove.error)}
        onConfirm={() => remove.confirm(selectedIds)}
        onCancel={remove.cancel}
      >
        <p>{t('bulkDeleteBody')}</p>
      </ConfirmDialog>
    </section>
  );
}

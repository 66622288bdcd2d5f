'use client';

import { ConfirmDialog } from '@/components/confirm-dialog';
import { useDashboardText } from '@/client/use-dashboard-text';
import type { ItemDelete } from './use-item-delete';

/** The confirmation before one item is deleted, open while {@link ItemDelete} asks about one. */
export function ItemDeleteDialog({ flow }: { flow: ItemDelete }) {
  const { t, errorSentence } = useDashboardText('inventory');
  return (
    <ConfirmDialog
      open={flow.deleting !== undefined}
      title={t('deleteTitle', { unit: flow.deleting?.unitNumber ?? '' })}
      confirmLabel={t('deleteConfirm')}
      danger
      busy={flow.isPending}
      error={flow.error === undefined ? undefined : errorSentence(flow.error)}
      onConfirm={flow.confirm}
      onCancel={flow.cancel}
    >
      <p>{t('deleteBody')}</p>
    </ConfirmDialog>
  );
}

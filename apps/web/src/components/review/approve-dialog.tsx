'use client';

import { useTranslations } from 'next-intl';
import { ConfirmDialog } from '@/components/confirm-dialog';
import type { ReviewVariant } from './review-data';
import { useDescribeVariant } from './use-describe-variant';

/** The confirmation of a bulk approval, naming every variant in it. */
export function ApproveDialog({
  items,
  busy,
  onConfirm,
  onCancel,
}: {
  /** The selection asked about; undefined: closed. */
  items: ReviewVariant[] | undefined;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const t = useTranslations('review');
  const describe = useDescribeVariant();
  return (
    <ConfirmDialog
      open={items !== undefined}
      title={t('approveTitle', { count: items?.length ?? 0 })}
      confirmLabel={t('approveConfirm')}
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>{t('approveBody')}</p>
      <ul className="small">
        {items?.map((item) => <li key={item.variant.id}>{describe(item)}</li>)}
      </ul>
    </ConfirmDialog>
  );
}

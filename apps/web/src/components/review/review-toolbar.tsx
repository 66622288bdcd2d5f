'use client';

import { useTranslations } from 'next-intl';

/** Select all, and the bulk actions on the selection. */
export function ReviewToolbar({
  allSelected,
  selectedCount,
  busy,
  onSelectAll,
  onApproveSelected,
  onRejectSelected,
}: {
  allSelected: boolean;
  selectedCount: number;
  busy: boolean;
  onSelectAll: (on: boolean) => void;
  onApproveSelected: () => void;
  onRejectSelected: () => void;
}) {
  const t = useTranslations('review');
  return (
    <div className="review-toolbar" role="group" aria-label={t('selectedGroup')}>
      <label className="row small">
        <input type="checkbox" checked={allSelected} onChange={(event) => onSelectAll(event.target.checked)} />
        {t('selectAll')}
      </label>
      {/* Bulk actions appear with a selection, so a lone item has one Approve and one Reject. */}
      {selectedCount > 0 && (
        <>
          <button type="button" className="button button-small" disabled={busy} onClick={onApproveSelected}>
            {t('approveSelected', { count: selectedCount })}
          </button>
          <button type="button" className="button button-small" disabled={busy} onClick={onRejectSelected}>
            {t('rejectSelected', { count: selectedCount })}
          </button>
        </>
      )}
    </div>
  );
}

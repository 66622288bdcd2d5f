'use client';

import { useTranslations } from 'next-intl';
import type { Ref } from 'react';
import type { CsvRowError } from '@/lib/inventory-csv';
import { CsvErrorTable } from './csv-error-table';
import type { ImportPhase } from './use-csv-import-run';
import styles from './csv-import.module.css';

/** The import under way and its summary: rows sent, rows written, and the refused ones to fix. */
export function CsvImportProgress({
  id,
  phase,
  rowCount,
  total,
  statusRef,
  onDownloadErrors,
  onReset,
}: {
  /** Prefix of the progress bar's id. */
  id: string;
  phase: Exclude<ImportPhase, { kind: 'preview' }>;
  /** Valid rows being sent. */
  rowCount: number;
  /** Rows in the file, valid or not. */
  total: number;
  statusRef: Ref<HTMLParagraphElement>;
  onDownloadErrors: (errors: readonly CsvRowError[]) => void;
  onReset: () => void;
}) {
  const t = useTranslations('csv');
  return (
    <div className="stack">
      <label htmlFor={`${id}-progress`}>{t('progress')}</label>
      <progress
        id={`${id}-progress`}
        max={Math.max(rowCount, 1)}
        value={phase.kind === 'importing' ? phase.processed : rowCount}
        data-testid="import-progress"
      />
      <p aria-live="polite" data-testid="import-status" ref={statusRef} tabIndex={-1}>
        {phase.kind === 'importing'
          ? t('sending', { processed: phase.processed, total: rowCount, imported: phase.imported })
          : t('imported', { imported: phase.imported, total })}
        {phase.kind === 'importing' && phase.waitingSeconds !== undefined && ` ${t('rateLimited', { seconds: phase.waitingSeconds })}`}
      </p>
      {phase.kind === 'finished' && phase.refused.length > 0 && (
        <div className="alert alert-warning stack" role="alert" data-testid="import-errors">
          <p style={{ margin: 0 }}>
            <strong>
              {t('notImported', { count: phase.refused.length })}
            </strong>{' '}
            {t('fixAndRetry')}
          </p>
          <CsvErrorTable errors={phase.refused} caption={t('notImportedCaption')} testId="import-error-rows" />
          <div className={styles.actions}>
            <button type="button" className="button" onClick={() => onDownloadErrors(phase.refused)}>
              {t('downloadNotImported')}
            </button>
          </div>
        </div>
      )}
      {phase.kind === 'finished' && (
        <div className={styles.actions}>
          <button type="button" className="button" onClick={onReset}>
            {t('importAnother')}
          </button>
        </div>
      )}
    </div>
  );
}

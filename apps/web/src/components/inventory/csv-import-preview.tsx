'use client';

import { useLocale, useTranslations } from 'next-intl';
import type { CsvRowError, ParsedInventoryCsv } from '@/lib/inventory-csv';
import { CsvErrorTable } from './csv-error-table';
import { CsvPreviewRows } from './csv-preview-rows';
import styles from './csv-import.module.css';

/** A checked file before anything is sent: what will be imported, what will not, and why. */
export function CsvImportPreview({
  fileName,
  parsed,
  unitName,
  onImport,
  onDownloadErrors,
  onReset,
}: {
  fileName: string;
  parsed: ParsedInventoryCsv;
  unitName: string;
  onImport: () => void;
  onDownloadErrors: (errors: readonly CsvRowError[]) => void;
  onReset: () => void;
}) {
  const t = useTranslations('csv');
  const locale = useLocale();
  return (
    <div className="stack" data-testid="import-preview">
      <p role="status" data-testid="preview-summary">
        {t.rich('previewSummary', {
          file: fileName,
          total: parsed.rows.length + parsed.errors.length,
          ready: parsed.rows.length,
          unit: unitName,
          errors: parsed.errors.length,
          strong: (chunks) => <strong>{chunks}</strong>,
        })}
      </p>
      {parsed.unusedColumns.length > 0 && (
        <p data-testid="unused-columns">
          {t('unusedColumns', {
            count: parsed.unusedColumns.length,
            columns: new Intl.ListFormat(locale, { type: 'conjunction' }).format(parsed.unusedColumns),
            unit: unitName,
          })}
        </p>
      )}
      {parsed.errors.length > 0 && (
        <CsvErrorTable errors={parsed.errors} caption={t('previewErrors')} testId="preview-errors" />
      )}
      {parsed.rows.length > 0 && <CsvPreviewRows rows={parsed.rows} />}
      <div className={styles.actions}>
        <button type="button" className="button button-primary" disabled={parsed.rows.length === 0} onClick={onImport}>
          {t('importValid', { count: parsed.rows.length })}
        </button>
        {parsed.errors.length > 0 && (
          <button type="button" className="button" onClick={() => onDownloadErrors(parsed.errors)}>
            {t('downloadErrors')}
          </button>
        )}
        <button type="button" className="button" onClick={onReset}>
          {t('chooseAnother')}
        </button>
      </div>
    </div>
  );
}

'use client';

import { useLocale, useTranslations } from 'next-intl';
import { inventoryStatusLabel } from '@staging/domain/inventory';
import { formatPriceAdjustment } from '@/lib/format';
import type { CsvRow } from '@/lib/inventory-csv';
import styles from './csv-import.module.css';

/** Rows shown in the preview table; the counts above it cover the whole file. */
const PREVIEW_ROWS = 20;

/** The first rows that will be imported, as the inventory will show them. */
export function CsvPreviewRows({ rows }: { rows: readonly CsvRow[] }) {
  const t = useTranslations('csv');
  const ti = useTranslations('inventory');
  const locale = useLocale();
  return (
    <div className={styles.scroll} tabIndex={0} role="region" aria-label={t('rowsToImport')}>
      <table className={styles.table}>
        <caption className={styles.caption}>
          {t('rowsToImport')}
          {rows.length > PREVIEW_ROWS && ` ${t('firstRows', { shown: PREVIEW_ROWS, total: rows.length })}`}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t('line')}</th>
            <th scope="col">{ti('unitNumber')}</th>
            <th scope="col">{ti('floor')}</th>
            <th scope="col">{ti('status')}</th>
            <th scope="col">{ti('priceAdjustment')}</th>
            <th scope="col" className={styles.notesColumn}>
              {ti('notes')}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, PREVIEW_ROWS).map((row) => (
            <tr key={row.line} data-testid="preview-row">
              <td className="num">{row.line}</td>
              <td className={styles.unitNumber}>
                {row.item.unitNumber}
                {row.item.notes !== undefined && row.item.notes !== null && <span className={styles.inlineNotes}>{row.item.notes}</span>}
              </td>
              <td className="num">{row.item.floor ?? '—'}</td>
              <td>{inventoryStatusLabel(row.item.status ?? 'AVAILABLE', locale)}</td>
              <td className="num">{formatPriceAdjustment(row.item.priceAdjustment ?? null, locale)}</td>
              <td className={`${styles.notes} ${styles.notesColumn}`}>{row.item.notes ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

'use client';

import { useTranslations } from 'next-intl';
import type { CsvRowError } from '@/lib/inventory-csv';
import styles from './csv-import.module.css';

/** Rows that were not (or will not be) imported, each with its line and problem. */
export function CsvErrorTable({ errors, caption, testId }: { errors: readonly CsvRowError[]; caption: string; testId: string }) {
  const t = useTranslations('csv');
  return (
    <div className={styles.scroll} tabIndex={0} role="region" aria-label={caption} data-testid={testId}>
      <table className={styles.table}>
        <caption className={styles.caption}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('line')}</th>
            <th scope="col">{t('problem')}</th>
          </tr>
        </thead>
        <tbody>
          {errors.map((error) => (
            <tr key={error.line}>
              <td className="num">{error.line}</td>
              <td>{error.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

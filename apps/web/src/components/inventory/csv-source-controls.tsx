'use client';

import { useLocale, useTranslations } from 'next-intl';
import type { ChangeEvent } from 'react';
import type { InventoryUnitRecord } from '@staging/contracts/inventory';
import { downloadText } from '@/client/download-text';
import { inventoryCsvTemplate } from '@/lib/inventory-csv';
import styles from './csv-import.module.css';

/** Where the import goes and what it reads: the unit, the file, and a template to start from. */
export function CsvSourceControls({
  id,
  units,
  unitId,
  importing,
  fileInputKey,
  fileName,
  onUnit,
  onFile,
}: {
  /** Prefix of the fields' ids. */
  id: string;
  units: InventoryUnitRecord[];
  unitId: string;
  importing: boolean;
  /** A new key empties the file field. */
  fileInputKey: number;
  fileName: string | undefined;
  onUnit: (unitId: string) => void;
  onFile: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  const t = useTranslations('csv');
  const locale = useLocale();
  return (
    <div className={styles.controls}>
      <div className="field">
        <label htmlFor={`${id}-unit`}>{t('importInto')}</label>
        <select id={`${id}-unit`} value={unitId} disabled={importing} onChange={(event) => onUnit(event.target.value)}>
          {units.map((unit) => (
            <option key={unit.propertyUnitId} value={unit.propertyUnitId}>
              {unit.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-file`}>{t('file')}</label>
        {/* The browser's own file button speaks the browser's language; this one the page's. */}
        <div className={styles.fileChooser}>
          <input
            key={fileInputKey}
            id={`${id}-file`}
            className="visually-hidden"
            type="file"
            accept=".csv,text/csv"
            disabled={importing || unitId === ''}
            onChange={onFile}
          />
          <label htmlFor={`${id}-file`} className="button">
            {t('chooseFile')}
          </label>
          <span className="small muted" data-testid="csv-file-name">
            {fileName ?? t('noFile')}
          </span>
        </div>
      </div>
      <button type="button" className="button" onClick={() => downloadText('inventory-template.csv', inventoryCsvTemplate(locale), 'text/csv')}>
        {t('template')}
      </button>
    </div>
  );
}

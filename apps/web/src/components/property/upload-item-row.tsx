'use client';

import { useLocale, useTranslations } from 'next-intl';
import { formatBytes } from '@/lib/format';
import type { UploadItem } from './upload-items';
import { StateText } from './upload-state-text';
import styles from './photo-upload.module.css';

/** One file in the batch: name, size, progress and outcome. */
export function UploadItemRow({ item }: { item: UploadItem }) {
  const t = useTranslations('upload');
  const locale = useLocale();
  return (
    <li className={styles.item} data-testid="upload-item" data-state={item.state.kind} data-name={item.file.name}>
      <span className={styles.name}>{item.file.name}</span>
      <span className="muted small">{formatBytes(item.file.size, locale)}</span>
      {item.state.kind !== 'refused' && (
        <progress
          max={item.file.size || 1}
          value={item.state.kind === 'uploading' ? item.state.loaded : item.state.kind === 'done' ? item.file.size || 1 : 0}
          aria-label={t('progressOf', { name: item.file.name })}
          data-testid="upload-progress"
        />
      )}
      <span className={styles.outcome}>
        <StateText item={item} />
      </span>
    </li>
  );
}

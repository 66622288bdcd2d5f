'use client';

import { useTranslations } from 'next-intl';
import { isTooSmallToStage, MAX_UPLOAD_BYTES, MIN_STAGING_SHORT_EDGE } from '@staging/domain/photo-upload';
import { useErrorSentence } from '@/client/use-error-sentence';
import { megabytes, type UploadItem } from './upload-items';
import styles from './photo-upload.module.css';

/** One file's state in the upload list, with why it was refused or failed. */
export function StateText({ item }: { item: UploadItem }) {
  const t = useTranslations('upload');
  const errorSentence = useErrorSentence();
  const { state, file } = item;
  switch (state.kind) {
    case 'queued':
      return <span className="status">{t('ready')}</span>;
    case 'uploading':
      return <span className="status status-run">{t('uploading', { percent: file.size === 0 ? 0 : Math.round((state.loaded / file.size) * 100) })}</span>;
    case 'done':
      return (
        <>
          <span className="status status-ok">{t('uploaded')}</span>
          {isTooSmallToStage(state.width, state.height) && (
            <span className={styles.note} data-testid="upload-small-warning">
              {t('tooSmall', { width: String(state.width), height: String(state.height), min: String(MIN_STAGING_SHORT_EDGE) })}
            </span>
          )}
        </>
      );
    case 'refused':
      return (
        <>
          <span className="status status-bad">{t('notAccepted')}</span>
          <span className={styles.note}>
            {state.reason === 'heif' ? t('heifRefused') : t('tooLarge', { size: megabytes(file.size), limit: megabytes(MAX_UPLOAD_BYTES) })}
          </span>
        </>
      );
    case 'failed':
      return (
        <>
          <span className="status status-bad">{t('failed')}</span>
          <span className={styles.note}>{errorSentence(state.failure)}</span>
        </>
      );
  }
}

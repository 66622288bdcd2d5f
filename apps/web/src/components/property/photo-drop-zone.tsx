'use client';

import { useTranslations } from 'next-intl';
import { useState, type DragEvent, type Ref } from 'react';
import { MAX_UPLOAD_BYTES, MIN_STAGING_SHORT_EDGE } from '@staging/domain/photo-upload';
import { megabytes } from './upload-items';
import styles from './photo-upload.module.css';

/** Where photos are dropped, or chosen with the file picker inside it. */
export function PhotoDropZone({
  inputId,
  inputRef,
  disabled,
  onFiles,
}: {
  inputId: string;
  inputRef: Ref<HTMLInputElement>;
  disabled: boolean;
  onFiles: (files: File[]) => void;
}) {
  const t = useTranslations('upload');
  const [dragging, setDragging] = useState(false);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    onFiles([...event.dataTransfer.files]);
  };
  return (
    <div
      className={`${styles.dropZone} ${dragging ? styles.dragging : ''}`}
      data-testid="photo-drop-zone"
      onDragEnter={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragOver={(event) => event.preventDefault()}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <p className={styles.dropText}>{t('dropText', { limit: megabytes(MAX_UPLOAD_BYTES) })}</p>
      <input
        id={inputId}
        ref={inputRef}
        className="visually-hidden"
        type="file"
        accept="image/jpeg,image/png,image/webp"
        multiple
        disabled={disabled}
        onChange={(event) => onFiles([...(event.target.files ?? [])])}
      />
      <label htmlFor={inputId} className="button">
        {t('choose')}
      </label>
      <p className="muted small" style={{ margin: 0 }}>
        {t('hint', { min: String(MIN_STAGING_SHORT_EDGE) })}
      </p>
    </div>
  );
}

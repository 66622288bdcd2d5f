'use client';

import { useTranslations } from 'next-intl';
import { useId, useRef, useState, type FormEvent } from 'react';
import { PhotoDropZone } from './photo-drop-zone';
import { UploadItemRow } from './upload-item-row';
import { useUploadBatch } from './use-upload-batch';
import styles from './photo-upload.module.css';
import { RoomTypeOptions } from '../vocabulary-options';

/**
 * Upload of many originals at once: dropped on the zone or chosen with the file picker, listed
 * with their own progress and outcome, sent when the agent presses Upload (after choosing the
 * batch's room type). HEIC files and files over the size limit are refused in the list before a
 * byte is sent. Files go one after another (the api decodes every upload; a batch of forty must
 * not crowd out the rest of the dashboard), and a failed file does not stop the ones after it.
 */
export function PhotoUpload({
  propertyId,
  onUploaded,
  settingsSaved,
}: {
  propertyId: string;
  onUploaded: () => Promise<unknown>;
  /** Settles once every change of the settings a new photo is stored with has been answered. */
  settingsSaved: () => Promise<unknown>;
}) {
  const id = useId();
  const t = useTranslations('upload');
  const inputRef = useRef<HTMLInputElement>(null);
  const [roomType, setRoomType] = useState('');
  const batch = useUploadBatch({ propertyId, inputRef, onUploaded, settingsSaved });
  const { items, queued, running, waitingForSettings, finished } = batch;

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    await batch.send(roomType);
  };

  const done = items.filter((item) => item.state.kind === 'done').length;
  const notUploaded = items.filter((item) => item.state.kind === 'refused' || item.state.kind === 'failed').length;
  const summary = waitingForSettings
    ? t('summaryWaitingForSettings')
    : running
      ? t('summaryRunning', { done, total: done + queued.length + items.filter((item) => item.state.kind === 'uploading').length })
      : finished
        ? t('summaryFinished', { done, failed: notUploaded })
        : t('summaryReady', { count: queued.length, refused: notUploaded });
  return (
    // The batch runs on after the submit event returns and reports each file's failure in its row.
    <form className={styles.upload} onSubmit={(event) => void upload(event)} aria-label={t('formLabel')}>
      <h3 className={styles.title}>{t('title')}</h3>
      <PhotoDropZone inputId={`${id}-file`} inputRef={inputRef} disabled={running} onFiles={(files) => void batch.add(files)} />
      <div className={styles.controls}>
        <div className="field">
          <label htmlFor={`${id}-room`}>{t('roomType')}</label>
          <select id={`${id}-room`} value={roomType} onChange={(event) => setRoomType(event.target.value)} disabled={running}>
            <option value="">{t('notSetYet')}</option>
            <RoomTypeOptions />
          </select>
        </div>
        <button type="submit" className="button button-primary" disabled={running || queued.length === 0}>
          {t('submit', { count: queued.length })}
        </button>
      </div>
      {items.length > 0 && (
        <>
          <p role="status" className="small" data-testid="upload-summary" ref={batch.summaryRef} tabIndex={-1}>
            {summary}
          </p>
          <ul className={styles.list} aria-label={t('files')}>
            {items.map((item) => (
              <UploadItemRow key={item.key} item={item} />
            ))}
          </ul>
        </>
      )}
    </form>
  );
}

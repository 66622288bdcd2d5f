'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useId, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { isTooSmallToStage, looksLikeHeif, MAX_UPLOAD_BYTES, MIN_STAGING_SHORT_EDGE, namesHeif } from '@staging/domain/photo-upload';
import { uploadOriginal } from '@/client/image-api';
import { useErrorSentence } from '@/client/use-error-sentence';
import { useFocusTarget } from '@/client/use-focus-target';
import { formatBytes } from '@/lib/format';
import styles from './photo-upload.module.css';
import { RoomTypeOptions } from '../vocabulary-options';

type UploadState =
  | { kind: 'queued' }
  | { kind: 'uploading'; loaded: number }
  | { kind: 'done'; width: number; height: number }
  | { kind: 'refused'; reason: Refusal }
  // The failure itself, worded at render: a language switch rewords it too.
  | { kind: 'failed'; failure: unknown };

interface UploadItem {
  key: number;
  file: File;
  state: UploadState;
}

type Refusal = 'heif' | 'tooLarge';

/**
 * Why a file is not even sent: larger than the api accepts (which would only refuse it after
 * the whole file had travelled), or HEIC by name, declared type or its first bytes.
 */
async function refusalOf(file: File): Promise<Refusal | undefined> {
  if (file.size > MAX_UPLOAD_BYTES) return 'tooLarge';
  if (namesHeif(file.name, file.type)) return 'heif';
  return looksLikeHeif(new Uint8Array(await file.slice(0, 12).arrayBuffer())) ? 'heif' : undefined;
}

/** Bytes in the megabytes the catalogue's `::unit/megabyte` shows (1024 × 1024, as the list does). */
const megabytes = (bytes: number) => bytes / (1024 * 1024);

function StateText({ item }: { item: UploadItem }) {
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
  const locale = useLocale();
  const inputRef = useRef<HTMLInputElement>(null);
  const nextKey = useRef(0);
  const [roomType, setRoomType] = useState('');
  const [items, setItems] = useState<UploadItem[]>([]);
  const [dragging, setDragging] = useState(false);
  const [running, setRunning] = useState(false);
  const [waitingForSettings, setWaitingForSettings] = useState(false);
  const [finished, setFinished] = useState(false);
  // The Upload button is disabled once the batch is sent; the summary of the batch takes focus.
  const summaryFocus = useFocusTarget<HTMLParagraphElement>();

  const update = (key: number, state: UploadState) =>
    setItems((current) => current.map((item) => (item.key === key ? { ...item, state } : item)));

  const add = async (files: File[]) => {
    if (files.length === 0 || running) return;
    const added = await Promise.all(
      files.map(async (file): Promise<UploadItem> => {
        const refusal = await refusalOf(file);
        return { key: nextKey.current++, file, state: refusal === undefined ? { kind: 'queued' } : { kind: 'refused', reason: refusal } };
      }),
    );
    // After a finished batch the next choice starts a new list, so the rows describe one batch.
    setItems((current) => [...(finished ? [] : current), ...added]);
    setFinished(false);
    if (inputRef.current !== null) inputRef.current.value = '';
  };

  const queued = items.filter((item) => item.state.kind === 'queued');

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    if (queued.length === 0) return;
    setRunning(true);
    setWaitingForSettings(true);
    await settingsSaved();
    setWaitingForSettings(false);
    let uploaded = 0;
    for (const item of queued) {
      update(item.key, { kind: 'uploading', loaded: 0 });
      try {
        const image = await uploadOriginal({
          propertyId,
          file: item.file,
          roomType: roomType === '' ? null : roomType,
          // The request is the file plus a little multipart framing: scaled to the file's bytes.
          onProgress: (progress) =>
            update(item.key, { kind: 'uploading', loaded: Math.round((progress.loaded / Math.max(progress.total, 1)) * item.file.size) }),
        });
        update(item.key, { kind: 'done', width: image.width, height: image.height });
        uploaded += 1;
      } catch (failure) {
        update(item.key, { kind: 'failed', failure });
      }
    }
    setRunning(false);
    setFinished(true);
    summaryFocus.moveFocus();
    if (uploaded > 0) await onUploaded();
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void add([...event.dataTransfer.files]);
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
          id={`${id}-file`}
          ref={inputRef}
          className="visually-hidden"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          multiple
          disabled={running}
          onChange={(event) => void add([...(event.target.files ?? [])])}
        />
        <label htmlFor={`${id}-file`} className="button">
          {t('choose')}
        </label>
        <p className="muted small" style={{ margin: 0 }}>
          {t('hint', { min: String(MIN_STAGING_SHORT_EDGE) })}
        </p>
      </div>
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
          <p role="status" className="small" data-testid="upload-summary" ref={summaryFocus.ref} tabIndex={-1}>
            {summary}
          </p>
          <ul className={styles.list} aria-label={t('files')}>
            {items.map((item) => (
              <li key={item.key} className={styles.item} data-testid="upload-item" data-state={item.state.kind} data-name={item.file.name}>
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
            ))}
          </ul>
        </>
      )}
    </form>
  );
}

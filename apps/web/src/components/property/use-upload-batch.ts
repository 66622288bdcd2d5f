'use client';

import { useRef, useState, type RefObject } from 'react';
import { uploadOriginal } from '@/client/image-api';
import { useFocusTarget } from '@/client/use-focus-target';
import { refusalOf, type UploadItem, type UploadState } from './upload-items';

/**
 * One batch of originals: files added (refused ones marked at once), then sent one after another
 * once the settings they are stored with are saved; a failed file does not stop the rest.
 */
export function useUploadBatch({
  propertyId,
  inputRef,
  onUploaded,
  settingsSaved,
}: {
  propertyId: string;
  /** The file field, emptied after each choice so the same file can be chosen again. */
  inputRef: RefObject<HTMLInputElement | null>;
  onUploaded: () => Promise<unknown>;
  settingsSaved: () => Promise<unknown>;
}) {
  const nextKey = useRef(0);
  const [items, setItems] = useState<UploadItem[]>([]);
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

  const send = async (roomType: string) => {
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

  return { items, queued, running, waitingForSettings, finished, add, send, summaryRef: summaryFocus.ref };
}

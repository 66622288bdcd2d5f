'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import { downloadFileName } from '@staging/domain/download-name';
import { useLightboxGestures } from './use-lightbox-gestures';

export interface LightboxImage {
  url: string;
  width: number;
  height: number;
  alt: string;
  title: string;
  /** With contentType: offered as a download under this name. Without, no download button. */
  downloadName?: string;
  contentType?: string;
}

/** A photo's place in its gallery: its 0-based index among `count`. */
interface GalleryPosition {
  index: number;
  count: number;
}

interface LightboxProps {
  image: LightboxImage | undefined;
  onClose: () => void;
  /** Set when there is a photo before or after this one in the same gallery. */
  onPrevious?: (() => void) | undefined;
  onNext?: (() => void) | undefined;
  /** Where the photo stands in its gallery (0-based index), shown as "2 of 5". */
  position?: GalleryPosition | undefined;
}

/**
 * The lightbox of one gallery: which photo is open, and its neighbours in `sequence` (found by
 * URL, so a photo opened from any tile showing it, the cover for one, has its place).
 */
export function useLightboxSequence(sequence: readonly LightboxImage[]): { open: (image: LightboxImage) => void; lightbox: LightboxProps } {
  const [image, setImage] = useState<LightboxImage | undefined>();
  const index = image === undefined ? -1 : sequence.findIndex((candidate) => candidate.url === image.url);
  const at = (i: number) => (index >= 0 && sequence[i] !== undefined ? () => setImage(sequence[i]) : undefined);
  return {
    open: setImage,
    lightbox: {
      image,
      onClose: () => setImage(undefined),
      onPrevious: at(index - 1),
      onNext: at(index + 1),
      position: index >= 0 && sequence.length > 1 ? { index, count: sequence.length } : undefined,
    },
  };
}

/**
 * Keeps the modal <dialog> open exactly while there is an image: shown when one arrives (after
 * `onShow`), closed when it is gone.
 */
function useLightboxDialog(image: LightboxImage | undefined, onShow: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (image !== undefined && !dialog.open) {
      onShow();
      dialog.showModal();
      // React's autoFocus runs before the dialog opens, and showModal would pick the first button
      // (the size toggle): the way out is the first thing a keyboard user should meet.
      closeRef.current?.focus();
    }
    if (image === undefined && dialog.open) dialog.close();
  }, [image]);
  return { ref, closeRef };
}

/**
 * An image at full resolution in a modal <dialog> (focus trapped, Escape closes, focus returns to
 * the opener): fitted to the screen first, one click for 1:1 pixels with scrolling. In a gallery,
 * previous and next by buttons, the arrow keys and a swipe; at 1:1 the arrows and drags scroll
 * the photo instead.
 */
export function ImageLightbox({ image, onClose, onPrevious, onNext, position }: LightboxProps) {
  const t = useTranslations('lightbox');
  const [actualSize, setActualSize] = useState(false);
  // Every photo opens fitted to the screen.
  const { ref, closeRef } = useLightboxDialog(image, () => setActualSize(false));
  const gestures = useLightboxGestures(!actualSize, onPrevious, onNext);

  return (
    <dialog ref={ref} className="lightbox" aria-label={image?.title ?? t('image')} onClose={onClose} onKeyDown={gestures.onKeyDown} data-testid="lightbox">
      {image !== undefined && (
        <>
          <div className="lightbox-bar">
            <strong>{image.title}</strong>
            <span className="small muted">
              {image.width}×{image.height}
            </span>
            {position !== undefined && <LightboxPosition position={position} onPrevious={onPrevious} onNext={onNext} />}
            <button type="button" className="button button-small" aria-pressed={actualSize} onClick={() => setActualSize(!actualSize)}>
              {actualSize ? t('fit') : t('actual')}
            </button>
            {image.downloadName !== undefined && image.contentType !== undefined && (
              <a className="button button-small" href={image.url} download={downloadFileName(image.downloadName, image.contentType)}>
                {t('download')}
              </a>
            )}
            <button ref={closeRef} type="button" className="button button-small" onClick={onClose}>
              {t('close')}
            </button>
          </div>
          <div
            className={actualSize ? 'lightbox-body lightbox-actual' : 'lightbox-body'}
            onPointerDown={gestures.onPointerDown}
            onPointerUp={gestures.onPointerUp}
            onPointerCancel={gestures.onPointerCancel}
          >
            <img src={image.url} alt={image.alt} width={image.width} height={image.height} />
          </div>
        </>
      )}
    </dialog>
  );
}

/** Previous, "2 of 5" and next, for a photo in a gallery; a button without a neighbour is disabled. */
function LightboxPosition({ position, onPrevious, onNext }: Pick<LightboxProps, 'onPrevious' | 'onNext'> & { position: GalleryPosition }) {
  const t = useTranslations('lightbox');
  return (
    <>
      <button type="button" className="button button-small" onClick={onPrevious} disabled={onPrevious === undefined}>
        {t('previous')}
      </button>
      <span className="small" data-testid="lightbox-position">
        {t('position', { index: position.index + 1, count: position.count })}
      </span>
      <button type="button" className="button button-small" onClick={onNext} disabled={onNext === undefined}>
        {t('next')}
      </button>
    </>
  );
}

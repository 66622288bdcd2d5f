'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import { downloadFileName } from '@staging/domain/download-name';

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

/**
 * An image at full resolution in a modal <dialog> (focus trapped, Escape closes, focus returns to
 * the opener): fitted to the screen first, one click for 1:1 pixels with scrolling.
 */
export function ImageLightbox({ image, onClose }: { image: LightboxImage | undefined; onClose: () => void }) {
  const t = useTranslations('lightbox');
  const ref = useRef<HTMLDialogElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const [actualSize, setActualSize] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (image !== undefined && !dialog.open) {
      setActualSize(false);
      dialog.showModal();
      // React's autoFocus runs before the dialog opens, and showModal would pick the first button
      // (the size toggle): the way out is the first thing a keyboard user should meet.
      closeRef.current?.focus();
    }
    if (image === undefined && dialog.open) dialog.close();
  }, [image]);

  return (
    <dialog ref={ref} className="lightbox" aria-label={image?.title ?? t('image')} onClose={onClose} data-testid="lightbox">
      {image !== undefined && (
        <>
          <div className="lightbox-bar">
            <strong>{image.title}</strong>
            <span className="small muted">
              {image.width}×{image.height}
            </span>
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
          <div className={actualSize ? 'lightbox-body lightbox-actual' : 'lightbox-body'}>
            <img src={image.url} alt={image.alt} width={image.width} height={image.height} />
          </div>
        </>
      )}
    </dialog>
  );
}

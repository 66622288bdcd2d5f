'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import { downloadFileName } from '@/lib/download-name';

export interface LightboxImage {
  url: string;
  width: number;
  height: number;
  contentType: string;
  alt: string;
  title: string;
  downloadName: string;
}

/**
 * An image at full resolution in a modal <dialog> (focus trapped, Escape closes, focus returns to
 * the opener): fitted to the screen first, one click for 1:1 pixels with scrolling.
 */
export function ImageLightbox({ image, onClose }: { image: LightboxImage | undefined; onClose: () => void }) {
  const t = useTranslations('lightbox');
  const ref = useRef<HTMLDialogElement>(null);
  const [actualSize, setActualSize] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (image !== undefined && !dialog.open) {
      setActualSize(false);
      dialog.showModal();
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
            <a className="button button-small" href={image.url} download={downloadFileName(image.downloadName, image.contentType)}>
              {t('download')}
            </a>
            <button type="button" className="button button-small" onClick={onClose} autoFocus>
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

'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useId, useRef } from 'react';

export interface ResultPair {
  title: string;
  original: { url: string; width: number; height: number; alt: string } | null;
  result: { url: string; width: number; height: number; alt: string };
}

/**
 * A staged result beside its original in a modal <dialog>, so the agent stays in the app: the
 * browser traps focus inside, Escape closes, and focus returns to the button that opened it.
 */
export function ResultDialog({ pair, onClose }: { pair: ResultPair | undefined; onClose: () => void }) {
  const t = useTranslations('jobs');
  const tl = useTranslations('lightbox');
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (pair !== undefined && !dialog.open) dialog.showModal();
    if (pair === undefined && dialog.open) dialog.close();
  }, [pair]);

  return (
    <dialog ref={ref} className="lightbox" aria-labelledby={titleId} onClose={onClose} data-testid="result-dialog">
      {pair !== undefined && (
        <>
          <div className="lightbox-bar">
            <h2 id={titleId} className="result-dialog-title">
              {pair.title}
            </h2>
            <button type="button" className="button button-small" onClick={onClose} autoFocus>
              {tl('close')}
            </button>
          </div>
          <div className="result-pair">
            {[
              { label: t('original'), image: pair.original },
              { label: t('result'), image: pair.result },
            ].map(({ label, image }) => (
              <figure key={label} className="result-figure">
                {image === null ? (
                  <p className="muted">{t('originalDeleted')}</p>
                ) : (
                  <img src={image.url} alt={image.alt} width={image.width} height={image.height} />
                )}
                <figcaption className="small">{label}</figcaption>
              </figure>
            ))}
          </div>
        </>
      )}
    </dialog>
  );
}

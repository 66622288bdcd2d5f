'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { downloadFileName } from '@staging/domain/download-name';
import { compareShapeOf, type CompareImage } from './compare-shape';
import { CompareSideBySide } from './compare-side-by-side';
import { CompareSlider } from './compare-slider';
import { ImageLightbox, useLightboxSequence } from './image-lightbox';
import { useCompareImages } from './use-compare-images';
import { useSplitHandle } from './use-split-handle';
import './review.css';

interface CompareViewProps {
  before: CompareImage;
  after: CompareImage;
  /** Names the photo in alt texts and control labels, e.g. "Photo 1 (Living room)". */
  name: string;
}

type CompareMode = 'slider' | 'side-by-side';

/**
 * Before/after comparison at the photos' true shapes (docs/decisions/web.md "Comparing a photo with a
 * result of another shape"): the frame has the original's aspect ratio and both images are fitted
 * whole, never cropped. A result of another shape sits in dark bars, and its area is outlined on
 * the original, so a square result of a 3:2 photo is visibly a crop. The handle is dragged across
 * the image (mouse, pen, touch) or moved with the arrow keys; side by side and full size are one
 * click away.
 */
export function CompareView({ before, after, name }: CompareViewProps) {
  const t = useTranslations('compare');
  const [mode, setMode] = useState<CompareMode>('slider');
  const handle = useSplitHandle();
  const shape = compareShapeOf(before, after);
  const images = useCompareImages(before, after, name);
  // Previous and next in the lightbox flip between the two, like the slider.
  const { open: setZoomed, lightbox } = useLightboxSequence([images.before, images.after]);

  return (
    <div className="stack compare-view">
      <CompareControls name={name} mode={mode} onMode={setMode} onZoom={(which) => setZoomed(images[which])} />
      {mode === 'slider' ? (
        <CompareSlider before={before} after={after} name={name} shape={shape} handle={handle} />
      ) : (
        <CompareSideBySide before={before} after={after} name={name} shape={shape} />
      )}
      {shape.cropped && (
        <p className="alert alert-warning small" data-testid="compare-crop-note" style={{ margin: 0 }}>
          {t('cropNote', { after: shape.afterRatio, before: shape.beforeRatio, percent: Math.round(shape.uncovered * 100) })}
        </p>
      )}
      <div className="row small">
        <a href={before.url} download={downloadFileName(images.before.downloadName, before.contentType)}>
          {t('downloadOriginal')}
        </a>
        <a href={after.url} download={downloadFileName(images.after.downloadName, after.contentType)}>
          {t('downloadStaged')}
        </a>
      </div>
      <ImageLightbox {...lightbox} />
    </div>
  );
}

/** The comparison's switches: slider or side by side, and either photo at full size. */
function CompareControls({
  name,
  mode,
  onMode,
  onZoom,
}: {
  name: string;
  mode: CompareMode;
  onMode: (mode: CompareMode) => void;
  onZoom: (which: 'before' | 'after') => void;
}) {
  const t = useTranslations('compare');
  return (
    <div className="row" role="group" aria-label={t('group', { name })}>
      <button type="button" className="button button-small" aria-pressed={mode === 'slider'} onClick={() => onMode('slider')}>
        {t('slider')}
      </button>
      <button type="button" className="button button-small" aria-pressed={mode === 'side-by-side'} onClick={() => onMode('side-by-side')}>
        {t('sideBySide')}
      </button>
      <button type="button" className="button button-small" onClick={() => onZoom('before')}>
        {t('fullOriginal')}
      </button>
      <button type="button" className="button button-small" onClick={() => onZoom('after')}>
        {t('fullStaged')}
      </button>
    </div>
  );
}

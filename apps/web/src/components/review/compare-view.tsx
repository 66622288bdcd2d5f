'use client';

import { useTranslations } from 'next-intl';
import { useId, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react';
import { aspectLabel, containBox, uncoveredShare } from '@/lib/aspect';
import { downloadFileName } from '@staging/domain/download-name';
import { ImageLightbox, useLightboxSequence, type LightboxImage } from './image-lightbox';
import './review.css';

export interface CompareImage {
  url: string;
  width: number;
  height: number;
  contentType: string;
}

interface CompareViewProps {
  before: CompareImage;
  after: CompareImage;
  /** Names the photo in alt texts and control labels, e.g. "Photo 1 (Living room)". */
  name: string;
}

const clamp = (value: number) => Math.min(100, Math.max(0, Math.round(value)));

// Arrow keys move the handle by 1 (10 with Shift), Page keys by 10, Home/End to the ends.
const KEY_STEPS: Record<string, (split: number, big: boolean) => number> = {
  ArrowLeft: (s, big) => s - (big ? 10 : 1),
  ArrowDown: (s, big) => s - (big ? 10 : 1),
  ArrowRight: (s, big) => s + (big ? 10 : 1),
  ArrowUp: (s, big) => s + (big ? 10 : 1),
  PageDown: (s) => s - 10,
  PageUp: (s) => s + 10,
  Home: () => 0,
  End: () => 100,
};

/**
 * Before/after comparison at the photos' true shapes (docs/decisions/web.md "Comparing a photo with a
 * result of another shape"): the frame has the original's aspect ratio and both images are fitted
 * whole, never cropped. A result of another shape sits in dark bars, and its area is outlined on
 * the original, so a square result of a 3:2 photo is visibly a crop. The handle is dragged across
 * the image (mouse, pen, touch) or moved with the arrow keys; side by side and full size are one
 * click away.
 */
export function CompareView({ before, after, name }: CompareViewProps) {
  const id = useId();
  const t = useTranslations('compare');
  const [mode, setMode] = useState<'slider' | 'side-by-side'>('slider');
  const [split, setSplit] = useState(50);
  const stageRef = useRef<HTMLDivElement>(null);
  const frameAspect = before.width > 0 && before.height > 0 ? before.width / before.height : 1;
  const afterAspect = after.width > 0 && after.height > 0 ? after.width / after.height : frameAspect;
  const box = containBox(afterAspect, frameAspect);
  const cropped = uncoveredShare(box) > 0.01;
  const beforeRatio = aspectLabel(before.width, before.height);
  const afterRatio = aspectLabel(after.width, after.height);
  const images = {
    before: { ...before, alt: t('beforeFullAlt', { name }), title: t('beforeTitle', { name }), downloadName: t('originalFile', { name }) },
    after: { ...after, alt: t('afterFullAlt', { name }), title: t('afterTitle', { name }), downloadName: t('stagedFile', { name }) },
  } satisfies Record<'before' | 'after', LightboxImage>;
  // Previous and next in the lightbox flip between the two, like the slider.
  const { open: setZoomed, lightbox } = useLightboxSequence([images.before, images.after]);

  const moveTo = (clientX: number) => {
    const rect = stageRef.current?.getBoundingClientRect();
    if (rect === undefined || rect.width === 0) return;
    setSplit(clamp(((clientX - rect.left) / rect.width) * 100));
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    moveTo(event.clientX);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (event.currentTarget.hasPointerCapture(event.pointerId)) moveTo(event.clientX);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = KEY_STEPS[event.key];
    if (step === undefined) return;
    event.preventDefault();
    // Keys other panels use (a, r, j, k) are untouched; arrows stay with the handle.
    event.stopPropagation();
    setSplit((s) => clamp(step(s, event.shiftKey)));
  };

  return (
    <div className="stack compare-view">
      <div className="row" role="group" aria-label={t('group', { name })}>
        <button type="button" className="button button-small" aria-pressed={mode === 'slider'} onClick={() => setMode('slider')}>
          {t('slider')}
        </button>
        <button type="button" className="button button-small" aria-pressed={mode === 'side-by-side'} onClick={() => setMode('side-by-side')}>
          {t('sideBySide')}
        </button>
        <button type="button" className="button button-small" onClick={() => setZoomed(images.before)}>
          {t('fullOriginal')}
        </button>
        <button type="button" className="button button-small" onClick={() => setZoomed(images.after)}>
          {t('fullStaged')}
        </button>
      </div>
      {mode === 'slider' ? (
        <div className="stack" style={{ gap: '0.4rem' }}>
          <div
            ref={stageRef}
            className="cmp-stage"
            // Width follows the height cap, so a tall photo keeps its shape instead of being squeezed.
            style={{ aspectRatio: String(frameAspect), width: `min(100%, calc(75vh * ${frameAspect}))`, '--split': `${split}%` } as CSSProperties}
            data-testid="compare-slider"
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
          >
            <img className="cmp-img" src={before.url} alt={t('beforeAlt', { name })} draggable={false} data-testid="compare-before" />
            <div className="cmp-after">
              <img className="cmp-img" src={after.url} alt={t('afterAlt', { name })} draggable={false} data-testid="compare-after" />
            </div>
            {cropped && (
              <div
                className="cmp-crop"
                style={{ left: `${box.left}%`, top: `${box.top}%`, width: `${box.width}%`, height: `${box.height}%` }}
                aria-hidden="true"
                data-testid="compare-crop"
              />
            )}
            <div
              className="cmp-handle"
              role="slider"
              tabIndex={0}
              aria-label={t('divider', { name })}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={split}
              aria-valuetext={t('dividerValue', { percent: 100 - split })}
              aria-describedby={`${id}-help`}
              onKeyDown={onKeyDown}
            >
              <span className="cmp-grip" aria-hidden="true">
                ‹ ›
              </span>
            </div>
          </div>
          <p id={`${id}-help`} className="small muted" style={{ margin: 0 }}>
            {t('help', { percent: 100 - split })}
          </p>
        </div>
      ) : (
        <div className="cmp-side" data-testid="compare-side-by-side">
          <SideFigure
            url={before.url}
            alt={t('beforeAlt', { name })}
            aspect={frameAspect}
            caption={t('beforeCaption', { ratio: beforeRatio, width: String(before.width), height: String(before.height) })}
          />
          <SideFigure
            url={after.url}
            alt={t('afterAlt', { name })}
            aspect={afterAspect}
            caption={t('afterCaption', { ratio: afterRatio, width: String(after.width), height: String(after.height) })}
          />
        </div>
      )}
      {cropped && (
        <p className="alert alert-warning small" data-testid="compare-crop-note" style={{ margin: 0 }}>
          {t('cropNote', { after: afterRatio, before: beforeRatio, percent: Math.round(uncoveredShare(box) * 100) })}
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

/** One image of the side-by-side view, letterboxed in a frame of its own aspect ratio. */
function SideFigure(props: { url: string; alt: string; aspect: number; caption: string }) {
  return (
    <figure>
      <div className="cmp-frame" style={{ aspectRatio: String(props.aspect) }}>
        <img src={props.url} alt={props.alt} />
      </div>
      <figcaption>{props.caption}</figcaption>
    </figure>
  );
}

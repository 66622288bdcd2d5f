'use client';

import { useTranslations } from 'next-intl';
import { useId, type CSSProperties } from 'react';
import type { CompareImage, CompareShape } from './compare-shape';
import type { SplitHandle } from './use-split-handle';

/**
 * The two photos stacked in the original's frame, the result shown left of the handle; a result
 * of another shape is outlined where it sits on the original.
 */
export function CompareSlider({ before, after, name, shape, handle }: { before: CompareImage; after: CompareImage; name: string; shape: CompareShape; handle: SplitHandle }) {
  const id = useId();
  const t = useTranslations('compare');
  const { frameAspect, box } = shape;
  const stageStyle: CSSProperties & { '--split': string } = {
    aspectRatio: String(frameAspect),
    // Width follows the height cap, so a tall photo keeps its shape instead of being squeezed.
    width: `min(100%, calc(75vh * ${frameAspect}))`,
    '--split': `${handle.split}%`,
  };
  return (
    <div className="stack" style={{ gap: '0.4rem' }}>
      <div
        ref={handle.stageRef}
        className="cmp-stage"
        style={stageStyle}
        data-testid="compare-slider"
        onPointerDown={handle.onPointerDown}
        onPointerMove={handle.onPointerMove}
      >
        <img className="cmp-img" src={before.url} alt={t('beforeAlt', { name })} draggable={false} data-testid="compare-before" />
        <div className="cmp-after">
          <img className="cmp-img" src={after.url} alt={t('afterAlt', { name })} draggable={false} data-testid="compare-after" />
        </div>
        {shape.cropped && (
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
          aria-valuenow={handle.split}
          aria-valuetext={t('dividerValue', { percent: 100 - handle.split })}
          aria-describedby={`${id}-help`}
          onKeyDown={handle.onKeyDown}
        >
          <span className="cmp-grip" aria-hidden="true">
            ‹ ›
          </span>
        </div>
      </div>
      <p id={`${id}-help`} className="small muted" style={{ margin: 0 }}>
        {t('help', { percent: 100 - handle.split })}
      </p>
    </div>
  );
}

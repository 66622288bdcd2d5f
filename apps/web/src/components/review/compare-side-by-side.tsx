'use client';

import { useTranslations } from 'next-intl';
import type { CompareImage, CompareShape } from './compare-shape';

/** The two photos next to each other, each at its own shape, captioned with its ratio and size. */
export function CompareSideBySide({ before, after, name, shape }: { before: CompareImage; after: CompareImage; name: string; shape: CompareShape }) {
  const t = useTranslations('compare');
  return (
    <div className="cmp-side" data-testid="compare-side-by-side">
      <SideFigure
        url={before.url}
        alt={t('beforeAlt', { name })}
        aspect={shape.frameAspect}
        caption={t('beforeCaption', { ratio: shape.beforeRatio, width: String(before.width), height: String(before.height) })}
      />
      <SideFigure
        url={after.url}
        alt={t('afterAlt', { name })}
        aspect={shape.afterAspect}
        caption={t('afterCaption', { ratio: shape.afterRatio, width: String(after.width), height: String(after.height) })}
      />
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

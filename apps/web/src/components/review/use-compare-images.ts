'use client';

import { useTranslations } from 'next-intl';
import type { CompareImage } from './compare-shape';
import type { LightboxImage } from './image-lightbox';

/** The original and the result as the lightbox shows them: alt text, title and download name. */
export function useCompareImages(before: CompareImage, after: CompareImage, name: string) {
  const t = useTranslations('compare');
  return {
    before: { ...before, alt: t('beforeFullAlt', { name }), title: t('beforeTitle', { name }), downloadName: t('originalFile', { name }) },
    after: { ...after, alt: t('afterFullAlt', { name }), title: t('afterTitle', { name }), downloadName: t('stagedFile', { name }) },
  } satisfies Record<'before' | 'after', LightboxImage>;
}

'use client';

import { useTranslations } from 'next-intl';
import { usePhotoNaming } from '@/client/use-photo-naming';
import type { ReviewVariant } from './review-data';

/** A variant in messages: "Photo 1 (Bedroom) in Modern style for Sunny flat". */
export function useDescribeVariant(): (item: ReviewVariant) => string {
  const t = useTranslations('review');
  const { styleName } = usePhotoNaming();
  return (item: ReviewVariant) =>
    t('describe', { name: item.name, style: styleName(item.variant.canonicalStyle ?? item.variant.style), property: item.property.title });
}

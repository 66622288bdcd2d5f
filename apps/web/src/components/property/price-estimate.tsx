'use client';

import { useLocale, useTranslations } from 'next-intl';
import { microusdToUsd } from '@/lib/format';

/**
 * The price shown before submitting: per photo, for the photos the submission will stage, and
 * with a retry (attempt 2). Photos already staged in the chosen style are named and left out:
 * the submission answers them "Already staged" and buys nothing.
 */
export function PriceEstimate({
  priceMicrousd,
  selected,
  toStage,
  alreadyStaged,
}: {
  priceMicrousd: number | null;
  selected: number;
  toStage: number;
  /** Labels of the selected photos that already have a live variant in the chosen style. */
  alreadyStaged: { photos: string[]; style: string };
}) {
  const t = useTranslations('stage');
  const locale = useLocale();
  const perPhoto = priceMicrousd === null ? 0 : microusdToUsd(priceMicrousd);
  const text =
    priceMicrousd === null
      ? t('estimateUnset')
      : selected === 0
        ? t('estimatePerPhoto', { perPhoto, worst: perPhoto * 2 })
        : toStage === 0
          ? t('estimateNothing', { photos: selected })
          : t('estimateBefore', { perPhoto, total: perPhoto * toStage, worst: perPhoto * toStage * 2, photos: toStage });
  return (
    <div aria-live="polite">
      <p className="small" data-testid="price-estimate">
        {text} <span className="muted">{t('estimateNote')}</span>
      </p>
      {alreadyStaged.photos.length > 0 && (
        <p className="small" data-testid="already-staged">
          {t('alreadyStagedNote', {
            count: alreadyStaged.photos.length,
            style: alreadyStaged.style,
            photos: new Intl.ListFormat(locale, { type: 'conjunction' }).format(alreadyStaged.photos),
          })}
        </p>
      )}
    </div>
  );
}

'use client';

import Link from 'next/link';
import { useTranslations } from 'next-intl';
import type { RouterOutputs } from '@staging/trpc/root';
import { usePhotoNaming } from '@/client/use-photo-naming';

type AgentImage = RouterOutputs['property']['get']['images'][number];

/** The staged variants of the original `name`, each approved or linked to its review. */
export function VariantStrip({ name, variants }: { name: string; variants: AgentImage[] }) {
  const t = useTranslations('photos');
  const { styleName } = usePhotoNaming();
  return (
    <div>
      <h4 style={{ margin: '0.25rem 0' }}>{t('variants', { count: variants.length })}</h4>
      {variants.length === 0 ? (
        <p className="muted small" style={{ margin: 0 }}>
          {t('noVariants')}
        </p>
      ) : (
        <ul className="variant-strip" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {variants.map((variant) => (
            <li key={variant.id} data-testid="variant" data-review-status={variant.reviewStatus ?? ''}>
              <div className="photo-frame">
                <img src={variant.thumbnailUrl} alt={t('variantAlt', { name, style: styleName(variant.canonicalStyle ?? variant.style) })} loading="lazy" />
              </div>
              <p className="small" style={{ margin: '0.25rem 0 0' }}>
                {styleName(variant.canonicalStyle ?? variant.style)} ·{' '}
                {variant.reviewStatus === 'APPROVED' ? (
                  <span className="status status-ok">{t('approved')}</span>
                ) : (
                  <Link href={`/review?image=${encodeURIComponent(variant.id)}`} className="status status-wait">
                    {t('waitingForReview')}
                  </Link>
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

'use client';

import { useLocale, useTranslations } from 'next-intl';
import type { Ref } from 'react';
import { STAGING_DISPOSITIONS } from '@staging/domain/dispositions';
import { styleLabel } from '@staging/domain/styles';
import type { RouterOutputs } from '@staging/trpc/root';
import { ExistingVariantLink } from './existing-variant-link';

type AgentImage = RouterOutputs['property']['get']['images'][number];
type SubmitResult = RouterOutputs['ai']['submitStaging'];

/** A submission's answer, with the photo names as they were when it was sent. */
export interface StageResultList {
  items: SubmitResult['items'];
  names: Record<string, string>;
}

const DISPOSITION_KEYS = {
  ENQUEUED: 'dispositionENQUEUED',
  EXISTING: 'dispositionEXISTING',
  style_exists: 'dispositionStyleExists',
} as const satisfies Record<SubmitResult['items'][number]['disposition'], string>;

/** Each assignment's disposition; an "Already staged" one links to the variant in the way. */
export function StageResults({ ref, results, images }: { ref: Ref<HTMLHeadingElement>; results: StageResultList; images: readonly AgentImage[] }) {
  const t = useTranslations('stage');
  const locale = useLocale();
  const variantOf = (originalImageId: string, canonicalStyle: string) =>
    images.find((image) => image.isStyled && image.styledFromId === originalImageId && image.canonicalStyle === canonicalStyle);
  return (
    <div className="section" aria-live="polite">
      <h3 ref={ref} tabIndex={-1} data-testid="stage-results-title">
        {t('resultsTitle')}
      </h3>
      <ul className="stack" style={{ paddingLeft: '1.25rem' }} data-testid="stage-results">
        {results.items.map((item) => (
          <li key={`${item.originalImageId}-${item.canonicalStyle}`} data-disposition={item.disposition}>
            <strong>
              {results.names[item.originalImageId] ?? item.originalImageId} · {styleLabel(item.canonicalStyle, locale)}:
            </strong>{' '}
            {t(DISPOSITION_KEYS[item.disposition])}
            {item.disposition === STAGING_DISPOSITIONS.STYLE_EXISTS && <ExistingVariantLink variant={variantOf(item.originalImageId, item.canonicalStyle)} />}
          </li>
        ))}
      </ul>
    </div>
  );
}

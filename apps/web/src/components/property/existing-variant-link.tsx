'use client';

import Link from 'next/link';
import { useTranslations } from 'next-intl';

/**
 * "Already staged": the way to the variant in the way, so the message is not a dead end, named
 * after what can be done with it there: a pending one is reviewed, an approved one taken down.
 */
export function ExistingVariantLink({ variant }: { variant: { id: string; reviewStatus: string | null } | undefined }) {
  const t = useTranslations('stage');
  if (variant === undefined) return null;
  return (
    <>
      {' '}
      <Link href={`/review?image=${encodeURIComponent(variant.id)}`}>
        {variant.reviewStatus === 'APPROVED' ? t('takeDownExisting') : t('reviewExisting')}
      </Link>
    </>
  );
}

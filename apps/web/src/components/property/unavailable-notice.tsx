'use client';

import { useTranslations } from 'next-intl';
import type { Ref } from 'react';

/** The localized "temporarily unavailable" state of the kill switch. */
export function UnavailableNotice({ id, ref }: { id: string; ref: Ref<HTMLDivElement> }) {
  const t = useTranslations('stage');
  return (
    <div className="alert alert-warning" role="alert" id={id} tabIndex={-1} data-testid="staging-unavailable" ref={ref}>
      <strong>{t('unavailableTitle')}</strong>
      <p style={{ margin: '0.25rem 0 0' }}>{t('unavailableBody')}</p>
    </div>
  );
}

'use client';

import { useTranslations } from 'next-intl';
import type { RouterOutputs } from '@staging/trpc/root';

type AgentImage = RouterOutputs['property']['get']['images'][number];

/** Photos go by their file name; "Photo N" only for those stored before names were kept. */
export function useStagePhotoLabel(originals: readonly AgentImage[]) {
  const t = useTranslations('photos');
  return (imageId: string): string => {
    const index = originals.findIndex((image) => image.id === imageId);
    return index === -1 ? imageId : (originals[index]?.fileName ?? t('numbered', { index: index + 1 }));
  };
}

'use client';

import { useLocale, useTranslations } from 'next-intl';
import { isCanonicalStyle, styleLabel } from '@staging/domain/styles';
import type { RouterOutputs } from '@staging/trpc/root';
import { useRoomTypeLabel } from './use-room-type-label';

type AgentImage = RouterOutputs['property']['get']['images'][number];

/**
 * How photos and styles are named across the agent pages, in the UI language. A photo goes by
 * the file it was uploaded from, which is how the agent knows it ("kitchen.jpg (Kitchen)");
 * "Photo 2" (gallery position) only for photos stored before file names were kept. Without the
 * room (`withRoom` false) where the room is shown beside it anyway (jobs).
 */
export function usePhotoNaming() {
  const t = useTranslations('photos');
  const locale = useLocale();
  const roomTypeLabel = useRoomTypeLabel();
  /** The name of `original`, the `number`-th original of its property in gallery order. */
  const originalName = (original: Pick<AgentImage, 'fileName' | 'roomType'> | undefined, number: number, withRoom = true): string => {
    if (original === undefined) return t('deleted');
    const name = original.fileName ?? t('numbered', { index: number });
    const room = withRoom ? roomTypeLabel(original.roomType) : null;
    return room === null ? name : t('withRoom', { name, room });
  };
  return {
    photoName(originals: readonly AgentImage[], imageId: string | null, withRoom = true): string {
      const index = originals.findIndex((image) => image.id === imageId);
      return originalName(originals[index], index + 1, withRoom);
    },
    originalName,
    styleName(style: string | null): string {
      if (style === null) return t('unknownStyle');
      return isCanonicalStyle(style) ? styleLabel(style, locale) : style;
    },
  };
}

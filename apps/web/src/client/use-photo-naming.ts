'use client';

import { useLocale, useTranslations } from 'next-intl';
import { isRoomType, roomTypeLabel } from '@staging/domain/room-types';
import { isCanonicalStyle, styleLabel } from '@staging/domain/styles';
import type { RouterOutputs } from '@staging/trpc/root';

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
  return {
    photoName(originals: readonly AgentImage[], imageId: string | null, withRoom = true): string {
      const index = originals.findIndex((image) => image.id === imageId);
      const image = originals[index];
      if (image === undefined) return t('deleted');
      const name = image.fileName ?? t('numbered', { index: index + 1 });
      return withRoom && isRoomType(image.roomType) ? t('withRoom', { name, room: roomTypeLabel(image.roomType, locale) }) : name;
    },
    styleName(style: string | null): string {
      if (style === null) return t('unknownStyle');
      return isCanonicalStyle(style) ? styleLabel(style, locale) : style;
    },
  };
}

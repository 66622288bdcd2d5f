'use client';

import { useState } from 'react';
import { splitByLiveVariant } from '@staging/domain/live-variant';
import { isRoomType, type RoomType } from '@staging/domain/room-types';
import type { CanonicalStyle } from '@staging/domain/styles';
import type { RouterOutputs } from '@staging/trpc/root';
import { useIdSelection } from '@/client/use-id-selection';

type AgentProperty = RouterOutputs['property']['get'];

export type StageChoices = ReturnType<typeof useStageChoices>;

/**
 * What the staging form has picked: originals, a room type per photo (prefilled from the
 * persisted roomType) and a style, with what the submission would stage of it.
 */
export function useStageChoices(property: AgentProperty) {
  const originals = property.images.filter((image) => !image.isStyled);
  const selection = useIdSelection();
  const [roomTypes, setRoomTypes] = useState<Record<string, RoomType | ''>>({});
  const [style, setStyle] = useState<CanonicalStyle | ''>('');

  const roomTypeOf = (imageId: string): RoomType | '' => {
    if (imageId in roomTypes) return roomTypes[imageId] ?? '';
    const persisted = originals.find((image) => image.id === imageId)?.roomType ?? null;
    return isRoomType(persisted) ? persisted : '';
  };

  const chosen = originals.filter((image) => selection.selected.has(image.id));
  // Before a style is chosen every selected photo may be staged; after, the submission's own rule says which.
  const plan =
    style === '' ? { toStage: chosen.map((image) => image.id), alreadyStaged: [] } : splitByLiveVariant(chosen.map((image) => image.id), style, property.images);
  // Once photos and a style are picked, the first chosen photo still without a room type.
  const roomMissing = chosen.length > 0 && style !== '' ? chosen.find((image) => roomTypeOf(image.id) === '') : undefined;

  return {
    originals,
    selected: selection.selected,
    pick: selection.toggle,
    clear: () => selection.pickOnly([]),
    roomTypeOf,
    chooseRoomType: (imageId: string, roomType: RoomType | '') => setRoomTypes({ ...roomTypes, [imageId]: roomType }),
    style,
    setStyle,
    chosen,
    plan,
    roomMissing,
    /**
     * What to stage: each chosen photo in its room type and the style. The form sends only once
     * a style is chosen and every chosen photo has a room type; none is left out then.
     */
    assignments: () =>
      style === ''
        ? []
        : chosen.flatMap((image) => {
            const roomType = roomTypeOf(image.id);
            return roomType === '' ? [] : [{ originalImageId: image.id, roomType, style }];
          }),
  };
}

'use client';

import { useTranslations } from 'next-intl';
import { StagePhotoChoice } from './stage-photo-choice';
import type { StageChoices } from './use-stage-choices';

/**
 * The originals to stage, each with its room type once picked. The ids of its parts start with
 * `id`; `invalidRoom` is the photo whose missing room type the form error (`formErrorId`) is about.
 */
export function StagePhotoPicker({
  id,
  choices,
  photoLabel,
  roomSelectId,
  invalidRoom,
  formErrorId,
}: {
  id: string;
  choices: StageChoices;
  photoLabel: (imageId: string) => string;
  roomSelectId: (imageId: string) => string;
  invalidRoom: string | undefined;
  formErrorId: string;
}) {
  const t = useTranslations('stage');
  return (
    <fieldset>
      <legend>{t('pickPhotos')}</legend>
      <ul className="choice-grid" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {choices.originals.map((image) => (
          <StagePhotoChoice
            key={image.id}
            image={image}
            label={photoLabel(image.id)}
            checked={choices.selected.has(image.id)}
            roomType={choices.roomTypeOf(image.id)}
            roomSelectId={roomSelectId(image.id)}
            smallWarningId={`${id}-small-${image.id}`}
            invalidDescribedBy={invalidRoom === image.id ? formErrorId : undefined}
            onCheck={(checked) => choices.pick(image.id, checked)}
            onRoomType={(roomType) => choices.chooseRoomType(image.id, roomType)}
          />
        ))}
      </ul>
    </fieldset>
  );
}

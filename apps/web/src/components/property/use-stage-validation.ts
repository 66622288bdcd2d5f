'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { StageChoices } from './use-stage-choices';

/**
 * What the selection lacks before it can be staged. After a refused submit the form says what is
 * missing and follows the selection from then on: the message goes the moment the selection can
 * be staged, and comes back if it stops being so.
 */
export function useStageValidation({
  choices: { chosen, style, roomMissing },
  photoLabel,
  roomSelectId,
}: {
  choices: Pick<StageChoices, 'chosen' | 'style' | 'roomMissing'>;
  photoLabel: (imageId: string) => string;
  roomSelectId: (imageId: string) => string;
}) {
  const t = useTranslations('stage');
  const [validating, setValidating] = useState(false);

  /** What the selection lacks before it can be staged, or undefined. */
  const missing = (): string | undefined => {
    if (chosen.length === 0 || style === '') return t('pickAtLeastOne');
    return roomMissing === undefined ? undefined : t('roomTypeMissing', { photo: photoLabel(roomMissing.id) });
  };

  return {
    formError: validating ? missing() : undefined,
    /** The room type the message is about: marked invalid and described by it. */
    invalidRoom: validating ? roomMissing?.id : undefined,
    /** Whether the selection can be staged; if not, the form says why from now on. */
    check: (): boolean => {
      const invalid = missing() !== undefined;
      setValidating(invalid);
      // The agent goes straight to the field to fix.
      if (roomMissing !== undefined) document.getElementById(roomSelectId(roomMissing.id))?.focus();
      return !invalid;
    },
  };
}

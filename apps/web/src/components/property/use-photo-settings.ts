'use client';

import { useState } from 'react';
import { useErrorSentence } from '@/client/use-error-sentence';
import { useRefreshProperty } from './use-refresh-property';

type PhotoSetting = 'roomType' | 'cover' | 'public';

/**
 * Changing the settings of one photo (room type, cover, public page): one change at a time, the
 * property read again after it, and a failure shown beside the setting it came from.
 */
export function usePhotoSettings(propertyId: string) {
  const errorSentence = useErrorSentence();
  const refresh = useRefreshProperty(propertyId);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ setting: PhotoSetting; message: string } | undefined>();

  const change = async (setting: PhotoSetting, action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      await refresh();
    } catch (failure) {
      setError({ setting, message: errorSentence(failure) });
    } finally {
      setBusy(false);
    }
  };

  return {
    busy,
    change,
    /** Why the last change of `setting` failed, while that is the last failure. */
    errorOf: (setting: PhotoSetting) => (error?.setting === setting ? error.message : undefined),
  };
}

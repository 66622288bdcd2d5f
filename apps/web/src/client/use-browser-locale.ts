'use client';

import { useEffect, useState } from 'react';
import type { Locale } from '@staging/domain/locale';
import { pickLocale } from '@/lib/locale';

/**
 * The UI language: the server's pick from Accept-Language for the first render (no flash of the
 * wrong language), then the browser's own `navigator.languages` once mounted.
 */
export function useBrowserLocale(initial: Locale): Locale {
  const [locale, setLocale] = useState(initial);
  useEffect(() => {
    const languages = navigator.languages.length > 0 ? navigator.languages : [navigator.language];
    setLocale(pickLocale(languages));
  }, []);
  return locale;
}

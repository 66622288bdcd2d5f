'use client';

import { NextIntlClientProvider, useLocale, useMessages, useTimeZone } from 'next-intl';
import { useSyncExternalStore, type ReactNode } from 'react';

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const noSubscription = () => () => undefined;

/**
 * Dates in client components in the agent's own time zone (a job "submitted at 14:30" is their
 * 14:30), not the server's. The server render keeps the server's zone; client components only
 * show dates from data they fetch after mounting, so nothing rendered on the server changes.
 */
export function BrowserTimeZone({ children }: { children: ReactNode }) {
  const serverTimeZone = useTimeZone();
  const timeZone = useSyncExternalStore(noSubscription, browserTimeZone, () => serverTimeZone);
  return (
    <NextIntlClientProvider locale={useLocale()} messages={useMessages()} timeZone={timeZone}>
      {children}
    </NextIntlClientProvider>
  );
}

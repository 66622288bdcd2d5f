'use client';

import { useSelectedLayoutSegments } from 'next/navigation';
import { visitorPathOf } from '@/lib/public-page-paths';
import { LocaleSwitcherForm } from './locale-switcher';

/**
 * The language switcher of the cached public pages. Their HTML is rendered once for every
 * visitor, so the page to come back to is taken from the route (the same on the server and in
 * the browser), not from the address bar, which only the browser knows. Their root layout names
 * the language, so switching reloads the page.
 */
export function PublicLocaleSwitcher() {
  return <LocaleSwitcherForm here={visitorPathOf(useSelectedLayoutSegments())} reload />;
}

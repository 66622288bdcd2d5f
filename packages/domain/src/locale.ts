import { isOneOf } from './one-of';

/** UI languages the dashboard and native clients ship; labels in the domain exist for each. */
export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

/** True when `value` is one of {@link LOCALES}. */
export function isLocale(value: string | null | undefined): value is Locale {
  return isOneOf(LOCALES, value);
}

/** UI languages the dashboard and native clients ship; labels in the domain exist for each. */
export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

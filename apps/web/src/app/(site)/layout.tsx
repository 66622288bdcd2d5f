import type { Metadata, Viewport } from 'next';
import { getLocale } from 'next-intl/server';
import type { ReactNode } from 'react';
import { DocumentShell, documentMetadata } from '@/components/document-shell';

export function generateMetadata(): Promise<Metadata> {
  return documentMetadata();
}

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

// Every page here is rendered per request: Next.js can only put the proxy's per-request CSP nonce
// on the scripts of a page it renders now, and a prerendered page's scripts would be blocked.
// The public pages have a root layout of their own, (public)/[locale], and are cached instead.
export const dynamic = 'force-dynamic';

// The language of this request (src/i18n/request.ts).
export default async function SiteLayout({ children }: { children: ReactNode }) {
  return <DocumentShell locale={await getLocale()}>{children}</DocumentShell>;
}

import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { SkipLink } from '@/components/skip-link';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Listings dashboard', template: '%s · Listings dashboard' },
  description: 'Property listings, AI room staging and unit inventory.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

// Every page is rendered per request: Next.js can only put the proxy's per-request CSP nonce on
// the scripts of a page it renders now, and a prerendered page's scripts would be blocked.
export const dynamic = 'force-dynamic';

// The dashboard is written in English; the parts localized from the browser's language (the
// staging flow and jobs panel) carry their own lang attribute.
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <SkipLink />
        {children}
      </body>
    </html>
  );
}

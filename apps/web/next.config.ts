import { networkInterfaces } from 'node:os';
import path from 'node:path';
import type { NextConfig } from 'next';
import createNextIntlPlugin from 'next-intl/plugin';

// The workspace root: Turbopack and output tracing must see packages/* and the pnpm store that
// lives above this app, or workspace imports resolve to nothing in the server bundle.
const workspaceRoot = path.resolve(import.meta.dirname, '../..');

const securityHeaders = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'same-origin' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
];

// `next dev` serves its scripts only to the host it was started for unless told otherwise; the
// dashboard must work opened as localhost, 127.0.0.1 or the network address the banner prints.
const devOrigins = [
  'localhost',
  '127.0.0.1',
  ...Object.values(networkInterfaces())
    .flat()
    .flatMap((address) => (address === undefined || address.internal || address.family !== 'IPv4' ? [] : [address.address])),
];

// `BENCH_STATIC_PAGE=1 next build` adds the `bench.ts` page extension, so the public-pages
// benchmark's baseline route (src/app/bench-static/[bytes]/route.bench.ts) exists in that build
// only; without the flag the file is no route and a production build has no such URL.
// eslint-disable-next-line no-restricted-properties -- a build flag of the benchmark, not deployment configuration
const benchStaticPage = process.env.BENCH_STATIC_PAGE === '1';

const nextConfig: NextConfig = {
  reactStrictMode: true,
  pageExtensions: [...(benchStaticPage ? ['bench.ts'] : []), 'tsx', 'ts', 'jsx', 'js'],
  allowedDevOrigins: devOrigins,
  // `npm start` runs `next dev` as the demo an agent walks: the dev tools' floating button sits over
  // the page's bottom-left corner, where on a phone it takes taps meant for the dashboard.
  devIndicators: false,
  poweredByHeader: false,
  outputFileTracingRoot: workspaceRoot,
  turbopack: { root: workspaceRoot },
  // Workspace packages export TypeScript sources (ARCHITECTURE.md "Packages").
  transpilePackages: [
    '@staging/config',
    '@staging/contracts',
    '@staging/domain',
    '@staging/db',
    '@staging/http-edge',
    '@staging/platform',
    '@staging/services',
    '@staging/trpc',
  ],
  // Native or connection-holding libraries stay plain Node requires: bundling them breaks their
  // dynamic requires (pg-native probing, ioredis/bullmq Lua scripts read from disk, sharp binaries).
  serverExternalPackages: [
    '@prisma/adapter-pg',
    'pg',
    'ioredis',
    'bullmq',
    'pino',
    'sharp',
    'rate-limiter-flexible',
    '@sentry/node',
  ],
  experimental: {
    // The cached public pages (one per listing, language and search query) live in memory only,
    // within Next.js's bounded LRU (cacheMaxMemorySize): on disk, every query anyone types would
    // be a file that is never removed, and instances sharing a build would share each other's
    // pages. A restart starts empty; each page is rendered again on its first visit.
    isrFlushToDisk: false,
  },
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }];
  },
};

// Points next-intl at src/i18n/request.ts, which picks each request's locale and messages.
export default createNextIntlPlugin()(nextConfig);

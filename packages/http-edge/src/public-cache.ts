/**
 * How long a cache may keep what anonymous visitors see. A public image can be withdrawn (a staged
 * variant taken down, a photo deleted or hidden) while its URL is still in listing pages, browser
 * caches and CDNs; nothing can recall a copy a cache already holds, so the only promise that
 * holds without a purge is a short lifetime. Revalidating the sizes the pages show is cheap:
 * derivatives carry an ETag, so a fresh copy costs a 304 without bytes.
 */
export const WITHDRAWN_IMAGE_BOUND_SECONDS = 300;

/** Cache-Control of every public image answer (full content and derivatives). */
export const PUBLIC_IMAGE_CACHE_CONTROL = `public, max-age=${WITHDRAWN_IMAGE_BOUND_SECONDS}`;

/**
 * How long a shared cache (a CDN) may keep a public listing or search page as fresh. The origin
 * regenerates a page when a change to it is announced, but nothing can tell a CDN: its copy may be
 * served fresh this long, then, while it revalidates, stale for the rest of
 * WITHDRAWN_IMAGE_BOUND_SECONDS. So a page that still names a withdrawn image leaves every cache
 * within the same bound as the image itself. Browsers get no max-age: they revalidate each time,
 * which costs a 304 when nothing changed.
 */
export const PUBLIC_PAGE_SHARED_MAX_AGE_SECONDS = 60;

/** Cache-Control of every public listing and search page. */
export const PUBLIC_PAGE_CACHE_CONTROL = `public, s-maxage=${PUBLIC_PAGE_SHARED_MAX_AGE_SECONDS}, stale-while-revalidate=${WITHDRAWN_IMAGE_BOUND_SECONDS - PUBLIC_PAGE_SHARED_MAX_AGE_SECONDS}`;

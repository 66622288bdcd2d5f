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

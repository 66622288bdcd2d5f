/**
 * Per-assignment outcome of a staging submission (docs/system.md 4.3), spelled exactly as clients decode
 * them: ENQUEUED (a new job), EXISTING (the nonterminal job with the same dedupe key),
 * style_exists (a live variant of that style already exists; nothing was created).
 */
export const STAGING_DISPOSITIONS = {
  ENQUEUED: 'ENQUEUED',
  EXISTING: 'EXISTING',
  STYLE_EXISTS: 'style_exists',
} as const;

/** One of the values of {@link STAGING_DISPOSITIONS}. */
export type StagingDisposition = (typeof STAGING_DISPOSITIONS)[keyof typeof STAGING_DISPOSITIONS];

import type { CanonicalStyle } from './styles';

/**
 * ai_jobs.dedupeKey of a ROOM_STAGING job: `<originalImageId>:<canonicalStyle>`. The partial
 * unique index ai_jobs_active_staging_dedupe_uidx allows one nonterminal job per key, so a second
 * submission for the same photo and style (whatever its room type) returns EXISTING.
 */
export function stagingDedupeKey(originalImageId: string, canonicalStyle: CanonicalStyle): string {
  return `${originalImageId}:${canonicalStyle}`;
}

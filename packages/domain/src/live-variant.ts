import { REVIEW_STATUSES } from './job-outcome';
import type { ReviewStatus } from './job-outcome';
import { isOneOf } from './one-of';

/** What the rule reads of an image, as the database row and the agent's image DTO both carry it. */
export interface VariantFacts {
  isStyled: boolean;
  styledFromId: string | null;
  canonicalStyle: string | null;
  reviewStatus: ReviewStatus | null;
}

/**
 * Whether `image` is a live variant of the original in the style: a staged image of it in that
 * style that awaits review or is approved (a rejected one is deleted). While one exists, staging
 * the same photo in the same style answers style_exists and buys nothing; the submission decides
 * with this rule, and the dashboard's estimate leaves such photos out with it.
 */
export function isLiveVariantOf(image: VariantFacts, originalImageId: string, canonicalStyle: string): boolean {
  return (
    image.isStyled &&
    image.styledFromId === originalImageId &&
    image.canonicalStyle === canonicalStyle &&
    isOneOf(REVIEW_STATUSES, image.reviewStatus)
  );
}

/**
 * The chosen originals split by {@link isLiveVariantOf} over the property's images: those a
 * submission in the style will stage (and pay for), and those it will answer style_exists, each
 * in the order given.
 */
export function splitByLiveVariant(
  originalImageIds: readonly string[],
  canonicalStyle: string,
  images: readonly VariantFacts[],
): { toStage: string[]; alreadyStaged: string[] } {
  const toStage: string[] = [];
  const alreadyStaged: string[] = [];
  for (const id of originalImageIds) {
    (images.some((image) => isLiveVariantOf(image, id, canonicalStyle)) ? alreadyStaged : toStage).push(id);
  }
  return { toStage, alreadyStaged };
}

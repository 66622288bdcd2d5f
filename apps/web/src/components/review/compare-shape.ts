import { aspectLabel, containBox, uncoveredShare } from '@/lib/aspect';

export interface CompareImage {
  url: string;
  width: number;
  height: number;
  contentType: string;
}

/** Width over height; `fallback` for an image whose size is not known. */
function aspectOf(image: CompareImage, fallback: number): number {
  return image.width > 0 && image.height > 0 ? image.width / image.height : fallback;
}

/**
 * How the result sits in the original's frame: the frame has the original's aspect ratio, the
 * result is fitted whole inside it (`box`, in % of the frame), and `uncovered` is the share of
 * the frame it leaves bare. Past 1% the result is a crop worth showing and saying.
 */
export function compareShapeOf(before: CompareImage, after: CompareImage) {
  const frameAspect = aspectOf(before, 1);
  const afterAspect = aspectOf(after, frameAspect);
  const box = containBox(afterAspect, frameAspect);
  const uncovered = uncoveredShare(box);
  return {
    frameAspect,
    afterAspect,
    box,
    uncovered,
    cropped: uncovered > 0.01,
    beforeRatio: aspectLabel(before.width, before.height),
    afterRatio: aspectLabel(after.width, after.height),
  };
}

export type CompareShape = ReturnType<typeof compareShapeOf>;

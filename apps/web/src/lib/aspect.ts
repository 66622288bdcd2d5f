function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** "3:2", "1:1", "16:9": the reduced ratio, or "1.78:1" when the reduction says nothing useful. */
export function aspectLabel(width: number, height: number): string {
  if (width <= 0 || height <= 0) return '?';
  const divisor = gcd(width, height);
  const w = width / divisor;
  const h = height / divisor;
  return w <= 32 && h <= 32 ? `${w}:${h}` : `${(width / height).toFixed(2)}:1`;
}

/** Where an image of `innerAspect` sits when fitted whole (contain) in a frame of `frameAspect`, in % of the frame. */
export interface FittedBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export function containBox(innerAspect: number, frameAspect: number): FittedBox {
  if (innerAspect < frameAspect) {
    const width = (innerAspect / frameAspect) * 100;
    return { left: (100 - width) / 2, top: 0, width, height: 100 };
  }
  const height = (frameAspect / innerAspect) * 100;
  return { left: 0, top: (100 - height) / 2, width: 100, height };
}

/** Share of the frame's area an image fitted with {@link containBox} leaves empty, 0 to 1. */
export function uncoveredShare(box: FittedBox): number {
  return 1 - (box.width * box.height) / 10_000;
}

/**
 * Provider input values this service may send (docs/system.md 2.9, 8). packages/config validates the
 * AI_STAGING_* variables against these lists. Changing them needs a check against the live model
 * schema first (docs/system.md 9.6).
 */
export const PROVIDER_ASPECT_RATIOS = ['1:1', '3:2', '2:3'] as const;
/** Output formats the provider may be asked for. */
export const PROVIDER_OUTPUT_FORMATS = ['jpeg', 'png', 'webp'] as const;
/** Quality levels the provider may be asked for. */
export const PROVIDER_QUALITIES = ['low', 'medium', 'high', 'auto'] as const;
/** Inclusive bounds of output_compression. */
export const OUTPUT_COMPRESSION_RANGE = { min: 0, max: 100 } as const;

export type ProviderQuality = (typeof PROVIDER_QUALITIES)[number];
export type ProviderAspectRatio = (typeof PROVIDER_ASPECT_RATIOS)[number];
export type ProviderOutputFormat = (typeof PROVIDER_OUTPUT_FORMATS)[number];

/** Width divided by height of an allowed aspect ratio, e.g. 1.5 for 3:2. */
export function aspectRatioValue(aspectRatio: ProviderAspectRatio): number {
  const [width, height] = aspectRatio.split(':');
  return Number(width) / Number(height);
}

// What `npm start` chooses for the producer settings where the deployment defaults suit a real
// deployment but not a demo; the sources and dates are in docs/decisions/operations.md ("Money and shape
// on the local stack").

/**
 * Example prices per quality of the default model (openai/gpt-image-2), in micro-US-dollars, read
 * on 2026-11-27. They are example figures, not Replicate's price: the estimate exists so a
 * newcomer sees what staging would cost, never to authorize spend.
 */
export const LOCAL_EXAMPLE_PRICES = {
  AI_STAGING_COST_MICROUSD_LOW: '20000',
  AI_STAGING_COST_MICROUSD_MEDIUM: '70000',
  AI_STAGING_COST_MICROUSD_HIGH: '190000',
  // The provider picks the quality under `auto`, so the estimate takes the dearest one.
  AI_STAGING_COST_MICROUSD_AUTO: '190000',
} as const;

/** The dated source the worker records with every estimate (AI_STAGING_PRICING_VERSION). */
export const LOCAL_PRICING_VERSION = 'example-gpt-image-2-fal-rates-read-2026-11-27';

/**
 * Listing photos are mostly landscape; 3:2 keeps the whole room where the deployment default of
 * 1:1 cuts a quarter to a half of it.
 */
export const LOCAL_ASPECT_RATIO = '3:2';

/** Producer env of the local stack, identical on web, api and worker; the machine's env wins. */
export function localProducerEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const prices = Object.fromEntries(Object.entries(LOCAL_EXAMPLE_PRICES).map(([name, value]) => [name, env[name] ?? value]));
  return { AI_STAGING_ASPECT_RATIO: env.AI_STAGING_ASPECT_RATIO ?? LOCAL_ASPECT_RATIO, ...prices };
}

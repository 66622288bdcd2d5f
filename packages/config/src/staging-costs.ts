import type { EnvReader } from './env-reader';
import { integerRule } from './rules';

const COST_PREFIX = 'AI_STAGING_COST_MICROUSD_';

/**
 * AI_STAGING_COST_MICROUSD_<KEY>: price per quality key (e.g. `medium`) in micro-US-dollars; an
 * empty record means no estimate. Estimates only, never a charge. The worker records them per
 * attempt; the web app shows the same figure before a submission.
 */
export function readStagingCosts(r: EnvReader): Record<string, number> {
  const costs: Record<string, number> = {};
  for (const name of r.names()) {
    if (!name.startsWith(COST_PREFIX)) continue;
    const key = name.slice(COST_PREFIX.length).toLowerCase();
    if (!/^[a-z0-9_]+$/.test(key)) {
      r.problem(name, `must name a price key of letters, digits or underscores after ${COST_PREFIX}`);
      continue;
    }
    const value = r.maybe(name, integerRule(0));
    if (value !== undefined) costs[key] = value;
  }
  return costs;
}

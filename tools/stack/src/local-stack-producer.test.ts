import { readCommon } from '@staging/config/common';
import { EnvReader } from '@staging/config/env-reader';
import { readStagingCosts } from '@staging/config/staging-costs';
import { PROVIDER_QUALITIES } from '@staging/domain/provider-values';
import { localProducerEnv } from './local-stack-producer';

/** The producer settings and prices as the apps of the local stack read them. */
function read(env: NodeJS.ProcessEnv) {
  const r = new EnvReader({ DATABASE_URL: 'postgresql://localhost/x', VALKEY_URL: 'redis://localhost', ...localProducerEnv(env) }, 'web');
  const { producer } = readCommon(r);
  const costs = readStagingCosts(r);
  return { producer, costs, problems: r.problems };
}

describe('local stack producer settings', () => {
  it('prices every quality, so the configured one shows an estimate, and stages 3:2', () => {
    const { producer, costs, problems } = read({});
    expect(problems).toEqual([]);
    expect(producer.aspectRatio).toBe('3:2');
    expect(costs[producer.quality]).toBe(70_000);
    for (const quality of PROVIDER_QUALITIES) expect(costs[quality]).toBeGreaterThan(0);
  });

  it("leaves the machine's own settings in place", () => {
    const { producer, costs } = read({ AI_STAGING_ASPECT_RATIO: '1:1', AI_STAGING_COST_MICROUSD_MEDIUM: '42000' });
    expect(producer.aspectRatio).toBe('1:1');
    expect(costs.medium).toBe(42_000);
  });
});

import { STAGING_ASPECT_RATIOS, STAGING_OUTPUT_FORMATS, STAGING_QUALITIES } from '@staging/config/producer-values';
import { PROVIDER_ASPECT_RATIOS, PROVIDER_OUTPUT_FORMATS, PROVIDER_QUALITIES } from '@staging/domain/provider-values';

// Config validates the AI_STAGING_* variables and the domain validates persisted job values; the
// two packages may not import each other, so this test keeps their lists identical.
describe('provider values', () => {
  it('are the same in @staging/config and @staging/domain', () => {
    expect([...STAGING_ASPECT_RATIOS]).toEqual([...PROVIDER_ASPECT_RATIOS]);
    expect([...STAGING_OUTPUT_FORMATS]).toEqual([...PROVIDER_OUTPUT_FORMATS]);
    expect([...STAGING_QUALITIES]).toEqual([...PROVIDER_QUALITIES]);
  });
});

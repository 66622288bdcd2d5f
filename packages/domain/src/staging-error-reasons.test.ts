import { LOCALES } from './locale';
import { STAGING_ERROR_CODES } from './staging-errors';
import { STAGING_ERROR_REASONS, stagingErrorReason } from './staging-error-reasons';

describe('staging error reasons', () => {
  it('explain every worker error code in every language', () => {
    for (const code of STAGING_ERROR_CODES) {
      for (const locale of LOCALES) expect(STAGING_ERROR_REASONS[code][locale].length).toBeGreaterThan(20);
    }
  });

  it('explain the unconfirmed purchase', () => {
    expect(stagingErrorReason('PURCHASE_UNCONFIRMED', 'en')).toContain('could not confirm whether');
    expect(stagingErrorReason('PURCHASE_UNCONFIRMED', 'en')).toContain('you may submit again');
  });

  it('never shows a raw code, even an unknown one', () => {
    expect(stagingErrorReason('SOMETHING_NEW', 'en')).not.toContain('SOMETHING_NEW');
    expect(stagingErrorReason(null, 'es')).toMatch(/motivo/);
    expect(stagingErrorReason('toString', 'en')).toMatch(/does not know/);
  });
});

import { STAGING_ERRORS, STAGING_ERROR_CODES, isRetryableStagingError, isStagingErrorCode, stagingErrorCategory } from './staging-errors';

describe('staging error codes', () => {
  it('categorize every code', () => {
    const retryable = STAGING_ERROR_CODES.filter((code) => stagingErrorCategory(code) === 'retryable').sort();
    const terminal = STAGING_ERROR_CODES.filter((code) => stagingErrorCategory(code) === 'terminal').sort();
    expect(retryable).toEqual([
      'DAILY_PURCHASE_CAP_REACHED',
      'OUTPUT_DOWNLOAD_FAILED',
      'OUTPUT_NOT_IMAGE',
      'OUTPUT_TRUNCATED',
      'PROVIDER_ABORTED',
      'PROVIDER_FAILED',
      'PROVIDER_THROTTLED',
      'PROVIDER_TIMEOUT',
      'PROVIDER_UNAVAILABLE',
    ]);
    expect(terminal).toEqual([
      'ATTEMPTS_EXHAUSTED',
      'ORIGINAL_MISSING',
      'OUTPUT_TOO_LARGE',
      'OUTPUT_WRONG_ASPECT_RATIO',
      'OUTPUT_WRONG_FORMAT',
      'PROVIDER_AUTH',
      'PROVIDER_FAILED_PERMANENT',
      'PROVIDER_REJECTED_INPUT',
      'PURCHASE_UNCONFIRMED',
    ]);
    for (const code of STAGING_ERROR_CODES) expect(STAGING_ERRORS[code].description.length).toBeGreaterThan(10);
  });

  it('treats unknown and missing codes as terminal', () => {
    expect(isRetryableStagingError('PROVIDER_THROTTLED')).toBe(true);
    expect(isRetryableStagingError('NEW_CODE')).toBe(false);
    expect(isRetryableStagingError(null)).toBe(false);
    expect(isRetryableStagingError(undefined)).toBe(false);
    expect(isStagingErrorCode('toString')).toBe(false);
  });
});

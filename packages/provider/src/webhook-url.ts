/** The api's callback route: this prefix, then the attempt id (docs/system.md 4.1). */
export const STAGING_WEBHOOK_PATH_PREFIX = '/api/webhooks/provider/staging/';

/**
 * Callback URL of one provider attempt (docs/system.md 4.1). The base must be a bare origin: the api
 * route never redirects between trailing-slash or path variants, so a base like
 * "https://x.test/" would produce "//api/..." and every callback would be lost.
 */
export function stagingWebhookUrl(baseUrl: string, providerAttemptId: string): string {
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new Error('webhook base URL is not a valid URL');
  }
  if (parsed.origin === 'null' || parsed.origin !== baseUrl) {
    throw new Error('webhook base URL must be an origin only (scheme://host[:port]), with no path, query or trailing slash');
  }
  if (providerAttemptId === '') throw new Error('providerAttemptId must not be empty');
  return `${baseUrl}${STAGING_WEBHOOK_PATH_PREFIX}${encodeURIComponent(providerAttemptId)}`;
}

import 'server-only';
import { EnvReader } from '@staging/config/env-reader';
import { urlRule } from '@staging/config/rules';

export interface WebAppEnv {
  /** Where the api service listens; the REST image and public routes are forwarded there. */
  apiOrigin: string;
}

let cached: WebAppEnv | undefined;

/**
 * The one web-only setting WebConfig does not carry yet (API_ORIGIN). It is read with the config
 * package's reader and rules so it fails the same way as every other variable; once
 * packages/config grows it, this file goes away.
 */
export function getWebAppEnv(): WebAppEnv {
  if (cached !== undefined) return cached;
  const r = new EnvReader(process.env, 'web');
  const apiOrigin = r.required('API_ORIGIN', urlRule(['http', 'https'], 'api origin'));
  cached = r.finish({ apiOrigin: apiOrigin.replace(/\/+$/, '') });
  return cached;
}

/**
 * The layout of the git-ignored `.stack/` of the repository, where `npm start` (tools/stack, which
 * writes it through this module) leaves what the operations commands need to check the running
 * local stack: one env file per role and one raw JSON log per service; beside them the local
 * object storage's files.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConfigRole } from '@staging/config/config-error';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface LocalStackFiles {
  envFile(role: ConfigRole): string;
  logFile(service: ConfigRole): string;
  /** s3rver's data directory; only the launcher reads it. */
  s3Dir: string;
}

export function localStackFiles(root: string = REPO_ROOT): LocalStackFiles {
  return {
    envFile: (role) => path.join(root, '.stack', 'env', `${role}.env`),
    logFile: (service) => path.join(root, '.stack', 'logs', `${service}.log`),
    s3Dir: path.join(root, '.stack', 's3'),
  };
}

export const LOCAL_HINT = 'start the local stack with `npm start` first (it writes .stack/env and .stack/logs)';

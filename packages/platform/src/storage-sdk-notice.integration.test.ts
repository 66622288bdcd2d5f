import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

function stderrOfCreatingStorage(env: NodeJS.ProcessEnv): string {
  const script = `
    import { createObjectStorage } from './storage.ts';
    createObjectStorage({ region: 'us-east-1', endpoint: 'http://127.0.0.1:9', forcePathStyle: true,
      accessKeyId: 'k', secretAccessKey: 's', bucket: 'b' }).close();
  `;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: here,
    env,
    encoding: 'utf8',
  });
  expect(result.status).toBe(0);
  return result.stderr;
}

describe('the AWS SDK Node-version notice', () => {
  // Jest runs with NODE_OPTIONS=--no-warnings, which would hide the notice either way.
  const { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: _setting, NODE_OPTIONS: _options, ...env } = process.env;

  it('is not printed when our code creates an S3 client', () => {
    expect(stderrOfCreatingStorage(env)).not.toContain('NodeVersionSupportWarning');
  });

  it('still shows when an operator asks for it', () => {
    const major = Number(process.versions.node.split('.')[0]);
    const stderr = stderrOfCreatingStorage({ ...env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'false' });
    // The SDK only warns below Node 22.
    if (major < 22) expect(stderr).toContain('NodeVersionSupportWarning');
    else expect(stderr).not.toContain('NodeVersionSupportWarning');
  });
});

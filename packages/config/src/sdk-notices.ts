/**
 * The AWS SDK (v3) prints a notice on Node 20 that its releases after early 2027 need Node 22.
 * We support Node 20.19+ on purpose (package.json engines) and track that upgrade ourselves, so
 * the notice on every command and test run is noise. The SDK's documented switch
 * (aws/aws-sdk-js-v3#7983) is an environment variable it reads when a client is created; config,
 * the only reader of the environment, sets it unless an operator chose a value.
 */
export function silenceAwsSdkNodeVersionNotice(): void {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}

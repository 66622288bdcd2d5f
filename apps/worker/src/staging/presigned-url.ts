import { createHash, createHmac } from 'node:crypto';
import type { StorageConfig } from '@staging/config/common';

/**
 * Presigned S3 GET URL (AWS Signature V4, query-string auth) for the original photo the provider
 * downloads as input_images. Written out here because the workspace has no
 * @aws-sdk/s3-request-presigner; the algorithm is the documented "Authenticating Requests: Using
 * Query Parameters" one with UNSIGNED-PAYLOAD. The URL is a bearer credential for the object: it
 * is sent to the provider only and never logged.
 */
export function presignGetObjectUrl(
  storage: StorageConfig,
  key: string,
  options: { expiresInSeconds: number; now?: Date },
): string {
  const now = options.now ?? new Date();
  const amzDate = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const dateStamp = amzDate.slice(0, 8);
  const encodedKey = key.split('/').map(encodeRfc3986).join('/');

  let origin: URL;
  let path: string;
  if (storage.endpoint !== undefined) {
    origin = new URL(storage.endpoint);
    const basePath = origin.pathname.replace(/\/+$/, '');
    path = storage.forcePathStyle
      ? `${basePath}/${storage.bucket}/${encodedKey}`
      : `${basePath}/${encodedKey}`;
    if (!storage.forcePathStyle) origin = new URL(`${origin.protocol}//${storage.bucket}.${origin.host}`);
  } else {
    origin = new URL(`https://${storage.bucket}.s3.${storage.region}.amazonaws.com`);
    path = `/${encodedKey}`;
  }

  const scope = `${dateStamp}/${storage.region}/s3/aws4_request`;
  const query: [string, string][] = [
    ['X-Amz-Algorithm', 'AWS4-HMAC-SHA256'],
    ['X-Amz-Credential', `${storage.accessKeyId}/${scope}`],
    ['X-Amz-Date', amzDate],
    ['X-Amz-Expires', String(options.expiresInSeconds)],
    ['X-Amz-SignedHeaders', 'host'],
  ];
  const canonicalQuery = query
    .map(([k, v]) => `${encodeRfc3986(k)}=${encodeRfc3986(v)}`)
    .sort()
    .join('&');
  const canonicalRequest = [
    'GET',
    path,
    canonicalQuery,
    `host:${origin.host}`,
    '',
    'host',
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = ['s3', 'aws4_request'].reduce(
    (derived, part) => hmac(derived, part),
    hmac(hmac(`AWS4${storage.secretAccessKey}`, dateStamp), storage.region),
  );
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return `${origin.protocol}//${origin.host}${path}?${canonicalQuery}&X-Amz-Signature=${signature}`;
}

function encodeRfc3986(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

function sha256Hex(data: string): string {
  return createHash('sha256').update(data).digest('hex');
}

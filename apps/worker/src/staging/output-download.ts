import { MAX_OUTPUT_BYTES } from '@staging/domain/output-validation';

/** Why a download did not produce bytes; `retryable` says whether asking again may help. */
export class OutputDownloadError extends Error {
  override readonly name = 'OutputDownloadError';
  readonly kind: 'too_large' | 'gone' | 'http' | 'network';

  constructor(kind: OutputDownloadError['kind'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
  }

  get retryable(): boolean {
    return this.kind === 'network' || this.kind === 'http';
  }
}

/**
 * Downloads a provider output with the 20 MiB ceiling enforced while streaming: a declared
 * Content-Length over the limit is refused before reading, and an undeclared or lying one is cut
 * off (request aborted) as soon as the running total passes the limit, so an oversize output never
 * sits in memory whole. The URL is signed by the provider and is never put in an error message.
 */
export async function downloadOutput(
  url: string,
  options: { timeoutMs: number; maxBytes?: number; fetch?: typeof fetch },
): Promise<Buffer> {
  const maxBytes = options.maxBytes ?? MAX_OUTPUT_BYTES;
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new Error(`download timed out after ${options.timeoutMs} ms`)),
    options.timeoutMs,
  );
  try {
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(url, { signal: controller.signal, redirect: 'follow' });
    } catch (cause) {
      throw new OutputDownloadError('network', 'output download failed before a response arrived', { cause });
    }
    if (response.status === 404 || response.status === 410) {
      throw new OutputDownloadError('gone', `output is no longer available (HTTP ${response.status})`);
    }
    if (!response.ok || response.body === null) {
      throw new OutputDownloadError('http', `output download answered HTTP ${response.status}`);
    }
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      controller.abort();
      throw new OutputDownloadError(
        'too_large',
        `output declares ${declared} bytes; the ceiling is ${maxBytes}`,
      );
    }
    // With a declared length the bytes go straight into one buffer of that size; otherwise chunks
    // are collected and joined once. Either way the ceiling is checked on every chunk.
    const exact = Number.isFinite(declared) && declared > 0 ? Buffer.allocUnsafe(declared) : null;
    // Bytes beyond a (wrong) declared length, kept in order after the first `filled` bytes.
    const chunks: Buffer[] = [];
    let filled = 0;
    let total = 0;
    // The reader is never released: a stream that ended or failed needs no release, and Node
    // builds a TypeError with its stack trace on every release, source-mapped in the image (the
    // worker's CPU per job was about 5 ms higher with it: docs/decisions/staging.md "What a
    // staging job costs the worker").
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (total + value.byteLength > maxBytes) {
          controller.abort();
          throw new OutputDownloadError(
            'too_large',
            `output exceeded the ${maxBytes}-byte ceiling while streaming`,
          );
        }
        if (exact !== null && chunks.length === 0 && filled + value.byteLength <= exact.length) {
          exact.set(value, filled);
          filled += value.byteLength;
        } else chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
        total += value.byteLength;
      }
    } catch (error) {
      if (error instanceof OutputDownloadError) throw error;
      throw new OutputDownloadError('network', 'output download broke off while streaming', { cause: error });
    }
    if (exact === null) return Buffer.concat(chunks, total);
    if (chunks.length === 0) return filled === exact.length ? exact : exact.subarray(0, filled);
    return Buffer.concat([exact.subarray(0, filled), ...chunks], total);
  } finally {
    clearTimeout(timer);
  }
}

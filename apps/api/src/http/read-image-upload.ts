import busboy from 'busboy';
import type { Request } from 'express';
import { AppError, ErrorCode } from '@staging/domain/errors';

export interface ImageUpload {
  bytes: Buffer;
  /** The file name the client gave the part (untrusted text, for display only). */
  fileName: string | undefined;
  /** Text fields other than the file, first value wins. */
  fields: Map<string, string>;
}

export interface ReadImageUploadOptions {
  /** Name of the file field. */
  fileField: string;
  maxFileBytes: number;
  /** Text fields accepted besides the file; others are refused. */
  allowedFields: readonly string[];
}

const MAX_FIELD_BYTES = 1024;

function badRequest(message: string): AppError {
  return new AppError(ErrorCode.BAD_REQUEST, message);
}

/** What the form's parts said so far. The first failure wins; later ones are its consequences. */
interface CollectedParts {
  chunks: Buffer[];
  fields: Map<string, string>;
  sawFile: boolean;
  fileName: string | undefined;
  failure: AppError | undefined;
}

function fail(parts: CollectedParts, error: AppError): void {
  parts.failure ??= error;
}

/** @throws when the request is not multipart/form-data. */
function createUploadParser(req: Request, options: ReadImageUploadOptions): busboy.Busboy {
  return busboy({
    headers: req.headers,
    limits: {
      files: 1,
      fileSize: options.maxFileBytes,
      fields: options.allowedFields.length,
      fieldSize: MAX_FIELD_BYTES,
      // busboy emits partsLimit on *reaching* the limit (files and fields: on exceeding it), so
      // one more than the file plus the allowed fields means "a part too many".
      parts: options.allowedFields.length + 2,
      headerPairs: 20,
    },
  });
}

/** Collects the one file and the allowed fields into `parts`, noting the first rule a part breaks. */
function collectParts(parser: busboy.Busboy, options: ReadImageUploadOptions, parts: CollectedParts, malformed: () => void): void {
  parser.on('file', (name, stream, info) => {
    // busboy raises a truncated part ("Unexpected end of form") on the part's own stream, not
    // only on the parser; an EventEmitter with no 'error' listener ends the process.
    stream.on('error', malformed);
    if (name !== options.fileField || parts.sawFile) {
      fail(parts, badRequest(`Send exactly one file, in the field "${options.fileField}"`));
      stream.resume();
      return;
    }
    parts.sawFile = true;
    parts.fileName = info.filename;
    stream.on('data', (chunk: Buffer) => {
      if (parts.failure === undefined) parts.chunks.push(chunk);
    });
    stream.on('limit', () => {
      fail(parts, new AppError(ErrorCode.PAYLOAD_TOO_LARGE, `The file exceeds ${options.maxFileBytes} bytes`));
      parts.chunks.length = 0;
    });
  });
  parser.on('field', (name, value, info) => {
    if (!options.allowedFields.includes(name)) {
      fail(parts, badRequest(`Unknown field "${name}"`));
      return;
    }
    if (info.valueTruncated) fail(parts, badRequest(`Field "${name}" is too long`));
    if (!parts.fields.has(name)) parts.fields.set(name, value);
  });
  parser.on('partsLimit', () => fail(parts, badRequest('Too many parts in the form')));
  parser.on('filesLimit', () => fail(parts, badRequest('Send exactly one file')));
  parser.on('fieldsLimit', () => fail(parts, badRequest('Too many fields in the form')));
}

/**
 * Streams a multipart/form-data body with busboy and collects the one file into memory, refusing
 * it as soon as it passes `maxFileBytes` (the rest of the stream is drained, never buffered).
 * Part, field and file counts are bounded so a crafted body cannot make the parser work for long.
 */
export function readImageUpload(req: Request, options: ReadImageUploadOptions): Promise<ImageUpload> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = createUploadParser(req, options);
    } catch {
      reject(badRequest('Expected a multipart/form-data body'));
      return;
    }

    const parts: CollectedParts = { chunks: [], fields: new Map(), sawFile: false, fileName: undefined, failure: undefined };
    collectParts(parser, options, parts, malformed);
    function malformed(): void {
      fail(parts, badRequest('Malformed multipart body'));
      settle();
    }
    parser.on('error', malformed);
    parser.on('close', () => settle());
    // A client that goes away mid-body: 'aborted' on older Node, an error ('aborted', ECONNRESET)
    // on the request stream on newer ones; either way nothing more will arrive.
    const aborted = (): void => {
      fail(parts, badRequest('Upload aborted'));
      settle();
    };
    req.on('aborted', aborted);
    req.on('error', aborted);

    let settled = false;
    function settle(): void {
      if (settled) return;
      settled = true;
      if (parts.failure !== undefined) {
        req.unpipe(parser);
        // Keep reading so the client receives our answer instead of a reset connection.
        req.resume();
        reject(parts.failure);
        return;
      }
      if (!parts.sawFile) {
        reject(badRequest(`The form has no file in the field "${options.fileField}"`));
        return;
      }
      resolve({ bytes: Buffer.concat(parts.chunks), fileName: parts.fileName, fields: parts.fields });
    }
    req.pipe(parser);
  });
}

// The output file of a prediction: the input photo downloaded and rendered at the requested size
// and format, then spoiled as an output fault says, and served by the simulator under /files/.
import type { FaultSpec } from './faults';
import type { ModelInput } from './model-document';
import { CONTENT_TYPES, OUTPUT_SIZES, memoizedRenderer, wrongSizeFor } from './output-image';
import { randomId } from './prediction-state';
import type { OutputFile, SimPrediction, SimulatorState } from './prediction-state';

const OVERSIZE_BYTES = 21 * 1024 * 1024;
const MAX_INPUT_IMAGE_BYTES = 50 * 1024 * 1024;

async function fetchInputImage(url: string): Promise<Buffer> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(15_000) });
  } catch (cause) {
    throw new Error(`Failed to download input image: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  if (!response.ok) throw new Error(`Failed to download input image (HTTP ${response.status})`);
  const data = Buffer.from(await response.arrayBuffer());
  if (data.length > MAX_INPUT_IMAGE_BYTES) throw new Error('Failed to load input image: larger than 50 MiB');
  return data;
}

/** The rendered image as the output faults spoil it (cut short, an error page, endless). */
function outputFileFor(fault: FaultSpec | null, image: Buffer, contentType: string): OutputFile {
  switch (fault?.name) {
    case 'truncated_output':
      return { kind: 'bytes', contentType, data: image.subarray(0, Math.floor(image.length * 0.6)) };
    case 'non_image_output':
      return { kind: 'bytes', contentType, data: Buffer.from('<html><body><h1>502 Bad Gateway</h1></body></html>\n') };
    case 'oversize_output':
      return { kind: 'oversize', contentType, prefix: image, totalBytes: OVERSIZE_BYTES };
    default:
      return { kind: 'bytes', contentType, data: image };
  }
}

/**
 * `outputBaseUrl` is read per prediction: the simulator's origin is known only once it is bound.
 * `keepFile` learns each stored file's id, so that the prediction's data removal can delete it.
 */
export function createOutputPreparer(state: SimulatorState, outputBaseUrl: () => string) {
  const render = memoizedRenderer();

  return async function prepareOutput(p: SimPrediction, input: ModelInput, keepFile: (fileId: string) => void): Promise<string[]> {
    const [imageUrl] = input.input_images;
    // The model's input schema asks for at least one image; this only tells the type checker so.
    if (imageUrl === undefined) throw new Error('Failed to download input image: none was given');
    const source = await fetchInputImage(imageUrl);
    const format = input.output_format;
    const aspect = input.aspect_ratio;
    const size = p.fault?.name === 'wrong_aspect_ratio' ? wrongSizeFor(aspect) : OUTPUT_SIZES[aspect];
    let image: Buffer;
    try {
      image = await render({ input: source, ...size, format, compression: input.output_compression });
    } catch (cause) {
      throw new Error('Failed to load input image: the file is not a supported image', { cause });
    }
    const file = outputFileFor(p.fault, image, CONTENT_TYPES[format]);
    const fileId = randomId(24);
    state.files.set(fileId, file);
    keepFile(fileId);
    const base = outputBaseUrl().replace(/\/+$/, '');
    return [`${base}/files/${fileId}.${format}`];
  };
}

/**
 * The GET /models/{owner}/{name} document, shaped like Replicate's: the input schema lives at
 * latest_version.openapi_schema.components.schemas.Input, and enum inputs are written the way
 * Cog writes them (allOf + $ref to a sibling schema), so the client's schema reader is
 * exercised on the real indirection. Inputs follow the openai/gpt-image-2 model page (prompt,
 * input_images, aspect_ratio 1:1 | 3:2 | 2:3, quality, background, moderation, output_format,
 * output_compression, number_of_images, user_id); the output is an array of URIs.
 */
import { z } from 'zod';
import { ASPECT_RATIOS, OUTPUT_FORMATS, QUALITIES } from './output-image';

const BACKGROUNDS = ['auto', 'opaque'] as const;
const MODERATIONS = ['auto', 'low'] as const;

// Stricter than the real model in one way: input_images is required, so a worker that forgets
// the photo fails loudly here instead of getting a text-to-image result.
export const ZModelInput = z.looseObject({
  prompt: z.string().trim().min(1),
  input_images: z.array(z.url({ protocol: /^https?$/ })).min(1),
  aspect_ratio: z.enum(ASPECT_RATIOS).default('1:1'),
  quality: z.enum(QUALITIES).default('auto'),
  background: z.enum(BACKGROUNDS).default('auto'),
  moderation: z.enum(MODERATIONS).default('auto'),
  output_format: z.enum(OUTPUT_FORMATS).default('webp'),
  output_compression: z.int().min(0).max(100).default(90),
  number_of_images: z.int().min(1).max(1).default(1),
  user_id: z.string().max(256).optional(),
});
export type ModelInput = z.infer<typeof ZModelInput>;

export const SIMULATED_VERSION_ID = 'c0ffee5157a9e2b7d1a3f0e4b8c6d2a1f9e7b5c3d1a0f8e6b4c2a0e9d7b5c3a1';

function enumSchema(title: string, values: readonly string[], description: string) {
  return { title, description, enum: [...values], type: 'string' };
}

/** latest_version.openapi_schema: the model's input and output, written the way Cog writes them. */
function cogOpenapiSchema() {
  return {
    openapi: '3.0.2',
    info: { title: 'Cog', version: '0.1.0' },
    paths: {},
    components: {
      schemas: {
        Input: {
          type: 'object',
          title: 'Input',
          required: ['prompt'],
          properties: {
            prompt: { type: 'string', title: 'Prompt', 'x-order': 0, description: 'What to change in the image' },
            input_images: {
              type: 'array',
              items: { type: 'string', format: 'uri' },
              title: 'Input Images',
              'x-order': 1,
              description: 'Images to edit; the simulator uses the first and requires at least one',
            },
            aspect_ratio: { allOf: [{ $ref: '#/components/schemas/aspect_ratio' }], default: '1:1', 'x-order': 2 },
            quality: { allOf: [{ $ref: '#/components/schemas/quality' }], default: 'auto', 'x-order': 3 },
            background: { allOf: [{ $ref: '#/components/schemas/background' }], default: 'auto', 'x-order': 4 },
            moderation: { allOf: [{ $ref: '#/components/schemas/moderation' }], default: 'auto', 'x-order': 5 },
            output_format: { allOf: [{ $ref: '#/components/schemas/output_format' }], default: 'webp', 'x-order': 6 },
            output_compression: {
              type: 'integer',
              title: 'Output Compression',
              minimum: 0,
              maximum: 100,
              default: 90,
              'x-order': 7,
              description: 'Compression level (0-100%)',
            },
            number_of_images: {
              type: 'integer',
              title: 'Number Of Images',
              minimum: 1,
              maximum: 1,
              default: 1,
              'x-order': 8,
              description: 'Number of images to generate',
            },
            user_id: {
              type: 'string',
              title: 'User Id',
              'x-order': 9,
              description: 'An optional unique identifier representing your end-user, to help detect abuse',
            },
          },
        },
        Output: { type: 'array', title: 'Output', items: { type: 'string', format: 'uri' } },
        aspect_ratio: enumSchema('aspect_ratio', ASPECT_RATIOS, 'The aspect ratio of the generated image'),
        quality: enumSchema('quality', QUALITIES, 'The quality of the generated image'),
        background: enumSchema('background', BACKGROUNDS, 'Whether the background is opaque or chosen automatically'),
        moderation: enumSchema('moderation', MODERATIONS, 'Content moderation level'),
        output_format: enumSchema('output_format', OUTPUT_FORMATS, 'The format of the output image'),
      },
    },
  };
}

export function modelDocument(options: { owner: string; name: string; apiUrl: string; createdAt: string }) {
  return {
    url: `${options.apiUrl.replace(/\/v1$/, '')}/${options.owner}/${options.name}`,
    owner: options.owner,
    name: options.name,
    description: 'Simulated image-editing model (local provider simulator)',
    visibility: 'public',
    github_url: null,
    paper_url: null,
    license_url: null,
    run_count: 0,
    cover_image_url: null,
    default_example: null,
    latest_version: {
      id: SIMULATED_VERSION_ID,
      created_at: options.createdAt,
      cog_version: '0.14.0',
      openapi_schema: cogOpenapiSchema(),
    },
  };
}

import { describe, expect, it } from '@jest/globals';
import { findUnsupportedInputs, readInputConstraints } from './model-schema';
import type { ModelInfo } from './model-schema';

// Shaped like Cog's output: enums behind allOf/$ref, ranges inline.
const cogSchema = {
  components: {
    schemas: {
      Input: {
        type: 'object',
        properties: {
          prompt: { type: 'string' },
          input_images: { type: 'array', items: { type: 'string', format: 'uri' } },
          aspect_ratio: { allOf: [{ $ref: '#/components/schemas/aspect_ratio' }], default: '1:1' },
          quality: { allOf: [{ $ref: '#/components/schemas/quality' }] },
          output_format: { $ref: '#/components/schemas/output_format' },
          output_compression: { type: 'integer', minimum: 0, maximum: 100 },
        },
      },
      aspect_ratio: { type: 'string', enum: ['1:1', '3:2', '2:3'] },
      quality: { type: 'string', enum: ['low', 'medium', 'high', 'auto'] },
      output_format: { type: 'string', enum: ['png', 'jpeg', 'webp'] },
    },
  },
};

describe('readInputConstraints', () => {
  it('follows allOf/$ref to the enum values and reads numeric bounds', () => {
    expect(readInputConstraints(cogSchema)).toEqual({
      aspectRatio: ['1:1', '3:2', '2:3'],
      quality: ['low', 'medium', 'high', 'auto'],
      outputFormat: ['png', 'jpeg', 'webp'],
      outputCompression: { minimum: 0, maximum: 100 },
      inputNames: ['prompt', 'input_images', 'aspect_ratio', 'quality', 'output_format', 'output_compression'],
    });
  });

  it('reads inline enums', () => {
    const schema = { components: { schemas: { Input: { properties: { aspect_ratio: { type: 'string', enum: ['1:1'] } } } } } };
    expect(readInputConstraints(schema).aspectRatio).toEqual(['1:1']);
  });

  it('returns empty constraints for a missing or malformed schema instead of throwing', () => {
    for (const schema of [undefined, null, 'x', {}, { components: { schemas: { Input: { properties: { output_compression: { minimum: 0 } } } } } }]) {
      const result = readInputConstraints(schema);
      expect(result.aspectRatio).toEqual([]);
      expect(result.outputCompression).toBeNull();
    }
  });
});

describe('findUnsupportedInputs', () => {
  const model: ModelInfo = { owner: 'openai', name: 'gpt-image-2', latestVersionId: null, input: readInputConstraints(cogSchema) };
  const ok = { aspectRatio: '1:1', quality: 'medium', outputFormat: 'jpeg', outputCompression: 92 };

  it('accepts the initial producer values', () => {
    expect(findUnsupportedInputs(model, ok)).toEqual([]);
  });

  it('names every value the model would reject', () => {
    const problems = findUnsupportedInputs(model, { aspectRatio: '16:9', quality: 'ultra', outputFormat: 'gif', outputCompression: 101 });
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/aspect_ratio "16:9"[\s\S]*quality "ultra"[\s\S]*output_format "gif"[\s\S]*output_compression 101/);
  });

  it('reports a model that lost input_images or output_compression', () => {
    const stripped: ModelInfo = { ...model, input: { ...model.input, outputCompression: null, inputNames: ['prompt'] } };
    expect(findUnsupportedInputs(stripped, ok)).toEqual(['output_compression is not declared by the model', 'input_images is not declared by the model']);
  });
});

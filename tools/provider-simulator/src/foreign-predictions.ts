// The rest of a real account: what a Replicate token's prediction list holds besides our
// purchases (other models, other tokens, runs from the website, removed data).
import { SIMULATED_VERSION_ID } from './model-document';
import { randomId } from './prediction-state';
import type { SimPrediction } from './prediction-state';

const FOREIGN_MODELS = ['black-forest-labs/flux-schnell', 'meta/meta-llama-3-8b-instruct', 'openai/whisper'] as const;

/**
 * Five finished predictions created now, each with the next creation order from `nextSeq`: an
 * image model's, a language model's with an object output, a failed one with a null input, one
 * whose data was removed, and a website run of our own model with someone else's photo.
 */
export function foreignPredictions(ourModel: string, origin: string, nextSeq: () => number): SimPrediction[] {
  const now = new Date().toISOString();
  const base = (extra: Partial<SimPrediction>): SimPrediction => {
    const seq = nextSeq();
    return {
      id: randomId(26),
      model: FOREIGN_MODELS[0],
      version: SIMULATED_VERSION_ID,
      input: { prompt: 'a lighthouse at dusk' },
      status: 'succeeded',
      output: [`${origin}/files/foreign-${seq}.webp`],
      source: 'api',
      listedFrom: Date.now(),
      error: null,
      logs: '',
      data_removed: false,
      created_at: now,
      started_at: now,
      completed_at: now,
      deadline: null,
      webhook: null,
      webhook_events_filter: [],
      metrics: {},
      seq,
      fault: null,
      deliveries: [],
      ...extra,
    };
  };
  return [
    base({}),
    base({ model: FOREIGN_MODELS[1], output: null, outputJson: { text: 'Hello', usage: { tokens: 3 } } }),
    base({ model: FOREIGN_MODELS[2], input: null, output: null, status: 'failed', error: 'no audio' }),
    base({ data_removed: true, input: {}, output: null }),
    base({ model: ourModel, source: 'web', input: { prompt: 'Stage this room', input_images: ['https://example.com/room.jpg'] } }),
  ];
}

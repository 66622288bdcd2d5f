import { describe, expect, it } from '@jest/globals';
import { fingerprintFixedInput, fingerprintPredictionInput, searchPredictionByInput } from './prediction-recovery';
import type { RecoverySearchOptions } from './prediction-recovery';
import { readListEntry } from './provider-client';
import type { ListedPrediction, ListPredictionsOptions, PredictionInput, PredictionPage } from './provider-client';

const sentAt = new Date('2026-11-25T10:00:00Z');
const webhook = 'https://api.example/api/webhooks/provider/staging/attempt-1';

function inputFor(url: string): PredictionInput {
  return {
    prompt: 'Stage this living room in a Scandinavian style.',
    input_images: [url],
    aspect_ratio: '3:2',
    quality: 'medium',
    output_format: 'webp',
    output_compression: 90,
    user_id: 'u_abc',
  };
}
const ours = inputFor('http://s3/originals/a.jpg?X-Amz-Signature=ours');
const model = 'openai/gpt-image-2';

/** A prediction of another photo of the same job settings unless `extra` says otherwise. */
function prediction(id: string, createdAt: string, extra: Partial<ListedPrediction> = {}): ListedPrediction {
  return {
    readable: true,
    id,
    status: 'processing',
    created_at: createdAt,
    model,
    source: 'api',
    input: { ...inputFor(`http://s3/${id}`), prompt: `another prompt ${id}` },
    data_removed: false,
    webhook: null,
    ...extra,
  };
}

/** A list client over fixed pages, newest first, recording each request. */
function pagedList(pages: PredictionPage['results'][]) {
  const calls: ListPredictionsOptions[] = [];
  return {
    calls,
    async listPredictions(options: ListPredictionsOptions = {}): Promise<PredictionPage> {
      calls.push(options);
      const index = options.next ? Number(new URL(options.next).searchParams.get('page')) : 0;
      return { results: pages[index] ?? [], next: index + 1 < pages.length ? `https://api.example/v1/predictions?page=${index + 1}` : null };
    },
  };
}

/** The ledger of these tests gives no prediction to another attempt unless a test says so. */
const heldByNobody = async () => false;

const baseOptions = {
  model,
  inputFingerprint: fingerprintPredictionInput(ours),
  fixedFingerprint: fingerprintFixedInput(ours),
  webhook,
};

const search = (pages: PredictionPage['results'][], extra: Partial<RecoverySearchOptions> = {}) =>
  searchPredictionByInput(pagedList(pages), {
    ...baseOptions,
    sentAt,
    isHeldElsewhere: heldByNobody,
    ...extra,
  });

describe('fingerprintPredictionInput', () => {
  it('ignores key order and keys the provider adds', () => {
    const reordered = Object.fromEntries(Object.entries(ours).reverse());
    expect(fingerprintPredictionInput({ ...reordered, seed: 42 })).toBe(fingerprintPredictionInput(ours));
  });

  it('differs when any sent value differs, e.g. the presigned URL', () => {
    expect(fingerprintPredictionInput(inputFor('http://s3/originals/a.jpg?X-Amz-Signature=other'))).not.toBe(
      fingerprintPredictionInput(ours),
    );
    expect(fingerprintPredictionInput({ ...ours, output_compression: 80 })).not.toBe(fingerprintPredictionInput(ours));
  });

  it('is a hex SHA-256, so it can be stored and logged without the URL', () => {
    expect(fingerprintPredictionInput(ours)).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprintPredictionInput(ours)).not.toContain('Signature');
  });
});

describe('searchPredictionByInput', () => {
  it('finds the prediction whose echoed input matches, on a later page', async () => {
    const mine = prediction('mine', '2026-11-25T10:00:01Z', { input: { ...ours, seed: 7 } });
    const result = await search([[prediction('p1', '2026-11-25T10:00:05Z')], [mine]]);
    expect(result).toEqual({ kind: 'found', prediction: mine });
  });

  it('rules the purchase out when every prediction back to the creation time is someone else’s', async () => {
    const result = await search([
      [prediction('p1', '2026-11-25T10:00:05Z'), prediction('p2', '2026-11-25T09:59:00Z')],
      [prediction('old', '2026-11-25T09:50:00Z')],
    ]);
    expect(result).toEqual({ kind: 'absent', scanned: 2 });
  });

  it('rules it out on an empty list', async () => {
    expect(await search([[]])).toEqual({ kind: 'absent', scanned: 0 });
  });

  it('cannot decide when a prediction in the span had its data removed', async () => {
    const removed = prediction('gone', '2026-11-25T10:00:02Z', { data_removed: true, input: {} });
    const result = await search([[prediction('p1', '2026-11-25T10:00:05Z'), removed]]);
    expect(result).toMatchObject({ kind: 'undecidable', reason: expect.stringContaining('no readable input') });
  });

  it('passes over predictions of other models and website runs, whatever their input', async () => {
    const result = await search([
      [
        prediction('flux', '2026-11-25T10:00:04Z', { model: 'black-forest-labs/flux-schnell', input: null }),
        prediction('removed', '2026-11-25T10:00:03Z', { model: 'black-forest-labs/flux-schnell', data_removed: true, input: null }),
        prediction('web', '2026-11-25T10:00:02Z', { source: 'web', input: { ...ours } }),
      ],
    ]);
    expect(result).toEqual({ kind: 'absent', scanned: 3 });
  });

  it('cannot decide when our model has a prediction with a null input in the span', async () => {
    expect((await search([[prediction('null', '2026-11-25T10:00:02Z', { input: null })]])).kind).toBe('undecidable');
  });

  it('cannot decide when an entry is not a readable prediction at all', async () => {
    expect((await search([[{ readable: false, created_at: '2026-11-25T10:00:02Z' }]])).kind).toBe('undecidable');
  });

  it('counts our input with another image URL as doubt, not absence (the echo may rewrite it)', async () => {
    const rewritten = prediction('rw', '2026-11-25T10:00:01Z', { input: { ...ours, input_images: ['https://replicate.delivery/x.jpg'] } });
    expect(await search([[rewritten]])).toMatchObject({ kind: 'undecidable', reason: expect.stringContaining('another image URL') });
  });

  it('passes over our input with another image URL when another attempt holds that prediction', async () => {
    const theirs = prediction('a1', '2026-11-25T10:00:01Z', { input: { ...ours, input_images: ['http://s3/originals/a.jpg?X-Amz-Signature=a1'] } });
    expect(await search([[theirs]], { isHeldElsewhere: async (id) => id === 'a1' })).toEqual({ kind: 'absent', scanned: 1 });
  });

  it('asks the provider for the span around the creation time only, then follows the next URLs as given', async () => {
    const list = pagedList([[prediction('p1', '2026-11-25T10:00:05Z')], [prediction('p2', '2026-11-25T10:00:04Z')]]);
    await searchPredictionByInput(list, { ...baseOptions, sentAt, isHeldElsewhere: heldByNobody });
    expect(list.calls).toEqual([
      { createdAfter: new Date('2026-11-25T09:55:00Z'), createdBefore: new Date('2026-11-25T10:05:00Z') },
      { next: 'https://api.example/v1/predictions?page=1' },
    ]);
  });

  it('cannot decide when an echoed input lacks a key that was sent', async () => {
    const { user_id: _dropped, ...partial } = ours;
    const result = await search([[prediction('p1', '2026-11-25T10:00:05Z', { input: partial })]]);
    expect(result.kind).toBe('undecidable');
  });

  it('still finds the purchase past an unreadable prediction', async () => {
    const mine = prediction('mine', '2026-11-25T10:00:01Z', { input: { ...ours } });
    const removed = prediction('gone', '2026-11-25T10:00:02Z', { data_removed: true, input: {} });
    expect(await search([[removed, mine]])).toEqual({ kind: 'found', prediction: mine });
  });

  it('never takes a prediction that echoes another callback URL, even with the same input', async () => {
    const elsewhere = prediction('x', '2026-11-25T10:00:01Z', { input: { ...ours }, webhook: `${webhook}-other` });
    expect((await search([[elsewhere]])).kind).toBe('absent');
  });

  // Calls within one second for the same photo send the same input (the URL is signed to the second).
  describe('a prediction with our input that another attempt already holds', () => {
    const heldByAttempt1 = async (id: string) => id === 'attempt-1s';

    it('is passed over: nothing else matches, so nothing was bought', async () => {
      const theirs = prediction('attempt-1s', '2026-11-25T10:00:00Z', { input: { ...ours } });
      expect(await search([[prediction('p1', '2026-11-25T10:00:05Z'), theirs]], { isHeldElsewhere: heldByAttempt1 })).toEqual({
        kind: 'absent',
        scanned: 2,
      });
    });

    it('is passed over for the one nobody holds, older or newer', async () => {
      const theirs = prediction('attempt-1s', '2026-11-25T10:00:01Z', { input: { ...ours } });
      const mine = prediction('mine', '2026-11-25T10:00:00Z', { input: { ...ours } });
      expect(await search([[theirs], [mine]], { isHeldElsewhere: heldByAttempt1 })).toEqual({ kind: 'found', prediction: mine });
    });

    it('is asked about only for a prediction whose input matches', async () => {
      const asked: string[] = [];
      const theirs = prediction('attempt-1s', '2026-11-25T10:00:00Z', { input: { ...ours } });
      await search([[prediction('p1', '2026-11-25T10:00:05Z'), theirs]], {
        isHeldElsewhere: async (id) => (asked.push(id), heldByAttempt1(id)),
      });
      expect(asked).toEqual(['attempt-1s']);
    });
  });

  it('cannot decide when the page budget ends before the creation time', async () => {
    const pages = [[prediction('a', '2026-11-25T10:03:00Z')], [prediction('b', '2026-11-25T10:02:00Z')]];
    expect(await search(pages, { maxPages: 1 })).toMatchObject({ kind: 'undecidable' });
  });

  it('stops reading pages once it passes the creation time minus the clock-skew margin', async () => {
    const list = pagedList([[prediction('old', '2026-11-25T09:00:00Z')], [prediction('older', '2026-11-25T08:00:00Z')]]);
    const result = await searchPredictionByInput(list, { ...baseOptions, sentAt, isHeldElsewhere: heldByNobody });
    expect(result.kind).toBe('absent');
    expect(list.calls).toHaveLength(1);
  });
});

describe('readListEntry', () => {
  it('reads a foreign entry with an object output and a null input without failing', () => {
    const entry = readListEntry({
      id: 'x1',
      status: 'succeeded',
      created_at: '2026-11-25T10:00:00Z',
      model: 'meta/llama',
      source: 'web',
      input: null,
      output: { text: 'hi', tokens: [1, 2] },
      unknown_field: true,
    });
    expect(entry).toMatchObject({ readable: true, id: 'x1', model: 'meta/llama', source: 'web', input: null });
  });

  it('marks an entry without an id as unreadable, keeping its creation time', () => {
    expect(readListEntry({ created_at: '2026-11-25T10:00:00Z', status: 'succeeded' })).toEqual({ readable: false, created_at: '2026-11-25T10:00:00Z' });
  });
});

import { describe, expect, it } from '@jest/globals';
import { fingerprintPredictionInput, searchPredictionByInput } from './prediction-recovery';
import type { RecoverySearchOptions } from './prediction-recovery';
import { readListEntry } from './provider-wire';
import type { ListedPrediction, ListPredictionsOptions, PredictionInput, PredictionPage } from './provider-wire';

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
const otherModel = 'black-forest-labs/flux-schnell';

/** Someone else's prediction (another model) unless `extra` says otherwise. */
function prediction(id: string, createdAt: string, extra: Partial<ListedPrediction> = {}): ListedPrediction {
  return {
    readable: true,
    id,
    status: 'processing',
    created_at: createdAt,
    model: otherModel,
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
    const mine = prediction('mine', '2026-11-25T10:00:01Z', { model, input: { ...ours, seed: 7 } });
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
    const removed = prediction('gone', '2026-11-25T10:00:02Z', { model, data_removed: true, input: {} });
    const result = await search([[prediction('p1', '2026-11-25T10:00:05Z'), removed]]);
    expect(result).toMatchObject({ kind: 'undecidable', reason: expect.stringContaining('no readable input') });
  });

  it('passes over predictions of other models and website runs, whatever their input', async () => {
    const result = await search([
      [
        prediction('flux', '2026-11-25T10:00:04Z', { input: null }),
        prediction('removed', '2026-11-25T10:00:03Z', { data_removed: true, input: null }),
        prediction('web', '2026-11-25T10:00:02Z', { model, source: 'web', input: { ...ours } }),
      ],
    ]);
    expect(result).toEqual({ kind: 'absent', scanned: 3 });
  });

  it('cannot decide when our model has a prediction with a null input in the span', async () => {
    expect((await search([[prediction('null', '2026-11-25T10:00:02Z', { model, input: null })]])).kind).toBe('undecidable');
  });

  it('cannot decide when an entry is not a readable prediction at all', async () => {
    expect((await search([[{ readable: false, created_at: '2026-11-25T10:00:02Z' }]])).kind).toBe('undecidable');
  });

  it('counts our input with another image URL as doubt, not absence (the echo may rewrite it)', async () => {
    const rewritten = prediction('rw', '2026-11-25T10:00:01Z', { model, input: { ...ours, input_images: ['https://replicate.delivery/x.jpg'] } });
    expect(await search([[rewritten]])).toMatchObject({ kind: 'undecidable', reason: expect.stringContaining('differs from what was sent') });
  });

  it.each([
    ['the hashed user id', { user_id: 'u_rotated' }],
    ['the prompt', { prompt: `${ours.prompt} ` }],
    ['a number echoed as text', { output_compression: '90' }],
  ])('counts an echo that alters %s as doubt, never as someone else’s', async (_what, altered) => {
    const echo = prediction('alt', '2026-11-25T10:00:01Z', { model, input: { ...ours, ...altered } });
    expect((await search([[echo]])).kind).toBe('undecidable');
  });

  it('passes over our model’s predictions, whatever their input, when other attempts hold them', async () => {
    const sameSettings = prediction('a1', '2026-11-25T10:00:02Z', { model, input: { ...ours, input_images: ['http://s3/originals/a.jpg?X-Amz-Signature=a1'] } });
    const otherJob = prediction('a2', '2026-11-25T10:00:01Z', { model, input: { ...ours, prompt: 'another style' } });
    expect(await search([[sameSettings, otherJob]], { isHeldElsewhere: async (id) => id === 'a1' || id === 'a2' })).toEqual({
      kind: 'absent',
      scanned: 2,
    });
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
    const result = await search([[prediction('p1', '2026-11-25T10:00:05Z', { model, input: partial })]]);
    expect(result.kind).toBe('undecidable');
  });

  it('still finds the purchase past an unreadable prediction', async () => {
    const mine = prediction('mine', '2026-11-25T10:00:01Z', { model, input: { ...ours } });
    const removed = prediction('gone', '2026-11-25T10:00:02Z', { model, data_removed: true, input: {} });
    expect(await search([[removed, mine]])).toEqual({ kind: 'found', prediction: mine });
  });

  it('never takes a prediction that echoes another callback URL than the one sent, nor rules it out', async () => {
    const elsewhere = prediction('x', '2026-11-25T10:00:01Z', { model, input: { ...ours }, webhook: `${webhook}-other` });
    expect((await search([[elsewhere]])).kind).toBe('undecidable');
  });

  it('compares an echoed callback URL with the one sent, whatever the current config says', async () => {
    const sent = 'http://old-origin.example/api/webhooks/provider/staging/attempt-1';
    const mine = prediction('mine', '2026-11-25T10:00:01Z', { model, input: { ...ours }, webhook: sent });
    expect(await search([[mine]], { webhook: sent })).toEqual({ kind: 'found', prediction: mine });
  });

  it('lets an echoed callback URL neither prove nor deny a match when none was kept (attempts from before it was)', async () => {
    const mine = prediction('mine', '2026-11-25T10:00:01Z', { model, input: { ...ours }, webhook: `${webhook}-other` });
    expect(await search([[mine]], { webhook: null })).toEqual({ kind: 'found', prediction: mine });
  });

  // Calls within one second for the same photo send the same input (the URL is signed to the second).
  describe('a prediction with our input that another attempt already holds', () => {
    const heldByAttempt1 = async (id: string) => id === 'attempt-1s';
    const ourEntry = (id: string, createdAt: string) => prediction(id, createdAt, { model, input: { ...ours } });

    it('is passed over: nothing else matches, so nothing was bought', async () => {
      const theirs = ourEntry('attempt-1s', '2026-11-25T10:00:00Z');
      expect(await search([[prediction('p1', '2026-11-25T10:00:05Z'), theirs]], { isHeldElsewhere: heldByAttempt1 })).toEqual({
        kind: 'absent',
        scanned: 2,
      });
    });

    it('is passed over for the one nobody holds, older or newer', async () => {
      const theirs = ourEntry('attempt-1s', '2026-11-25T10:00:01Z');
      const mine = ourEntry('mine', '2026-11-25T10:00:00Z');
      expect(await search([[theirs], [mine]], { isHeldElsewhere: heldByAttempt1 })).toEqual({ kind: 'found', prediction: mine });
    });

    it('is asked about only for predictions of our model', async () => {
      const asked: string[] = [];
      const theirs = ourEntry('attempt-1s', '2026-11-25T10:00:00Z');
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

/**
 * A list whose `next` links name a foreign origin: the client refuses them, so each page says only
 * which origin was refused. It honours created_after/created_before, newest first.
 */
function listWithForeignLinks(entries: ListedPrediction[], pageSize: number) {
  const calls: ListPredictionsOptions[] = [];
  return {
    calls,
    async listPredictions(options: ListPredictionsOptions = {}): Promise<PredictionPage> {
      calls.push(options);
      const inSpan = entries
        .filter((e) => Date.parse(e.created_at) >= options.createdAfter!.getTime() && Date.parse(e.created_at) < options.createdBefore!.getTime())
        .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
      const results = inSpan.slice(0, pageSize);
      return inSpan.length > pageSize ? { results, next: null, refusedNextOrigin: 'https://elsewhere.example' } : { results, next: null };
    },
  };
}

describe('searchPredictionByInput when a next link names another origin', () => {
  const mine = prediction('mine', '2026-11-25T10:00:00Z', { model, input: { ...ours } });
  const newer = ['10:00:04', '10:00:03', '10:00:03', '10:00:02', '10:00:01'].map((time, i) => prediction(`p${i}`, `2026-11-25T${time}Z`));

  it('alerts and reads the rest of the span by time, finding the purchase on a later page', async () => {
    const list = listWithForeignLinks([...newer, mine], 2);
    const refused: string[] = [];
    const result = await searchPredictionByInput(list, { ...baseOptions, sentAt, isHeldElsewhere: heldByNobody, onRefusedNext: (origin) => refused.push(origin) });
    expect(result).toEqual({ kind: 'found', prediction: mine });
    expect(refused[0]).toBe('https://elsewhere.example');
    // The oldest instant shown is read again on its own, then what is older.
    expect(list.calls.slice(1, 3)).toEqual([
      { createdAfter: new Date('2026-11-25T10:00:03Z'), createdBefore: new Date('2026-11-25T10:00:03.001Z') },
      { createdAfter: new Date('2026-11-25T09:55:00Z'), createdBefore: new Date('2026-11-25T10:00:03Z') },
    ]);
  });

  it('rules the purchase out across such pages, judging each prediction once', async () => {
    const list = listWithForeignLinks(newer, 2);
    expect(await searchPredictionByInput(list, { ...baseOptions, sentAt, isHeldElsewhere: heldByNobody })).toEqual({ kind: 'absent', scanned: 5 });
  });

  it('cannot decide when a whole page shares one instant, so time cannot move the walk on', async () => {
    const sameInstant = ['a', 'b', 'c'].map((id) => prediction(id, '2026-11-25T10:00:02Z'));
    const list = listWithForeignLinks(sameInstant, 2);
    expect(await searchPredictionByInput(list, { ...baseOptions, sentAt, isHeldElsewhere: heldByNobody })).toMatchObject({
      kind: 'undecidable',
      reason: expect.stringContaining('https://elsewhere.example'),
    });
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

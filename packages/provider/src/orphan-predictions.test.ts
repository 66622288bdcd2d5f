import { describe, expect, it } from '@jest/globals';
import { carriesOurMark, judgeListedPrediction, listedOfModel, objectUrlPrefixOf } from './orphan-predictions';
import type { LedgerView, OwnershipMarks } from './orphan-predictions';
import { fingerprintPredictionInput } from './prediction-recovery';
import type { ListedPrediction, PredictionInput } from './provider-wire';

const model = 'openai/gpt-image-2';
const marks: OwnershipMarks = { objectUrlPrefix: 'https://photos.s3.us-east-1.amazonaws.com/', webhookOrigin: 'https://api.example' };

function inputFor(url: string): Record<string, unknown> {
  const input: PredictionInput = {
    prompt: 'Stage this living room in a Scandinavian style.',
    input_images: [url],
    aspect_ratio: '3:2',
    quality: 'medium',
    output_format: 'jpeg',
    output_compression: 92,
    user_id: 'u_abc',
  };
  return { ...input };
}
const ourInput = inputFor('https://photos.s3.us-east-1.amazonaws.com/originals/p1/a.jpg?X-Amz-Signature=ours');

/** A running prediction of our model, sent by this deployment, that no attempt holds. */
function listed(extra: Partial<ListedPrediction> = {}): ListedPrediction {
  return {
    readable: true,
    id: 'pred-1',
    status: 'processing',
    created_at: '2026-12-05T10:00:00Z',
    model,
    source: 'api',
    input: { ...ourInput },
    data_removed: false,
    webhook: null,
    ...extra,
  };
}

const SPAN_MS = 5 * 60_000;
const emptyLedger: LedgerView = { heldIds: new Set(), recovering: [], recoverySpanMs: SPAN_MS };
const createdAtMs = Date.parse('2026-12-05T10:00:00Z');
const judge = (entry: ListedPrediction, ledger: LedgerView = emptyLedger) => judgeListedPrediction(entry, { model, marks, ledger });

describe('judgeListedPrediction', () => {
  it('a running purchase of ours that no attempt holds or recovers is an orphan to cancel', () => {
    expect(judge(listed())).toBe('running-orphan');
    expect(judge(listed({ status: 'starting' }))).toBe('running-orphan');
  });

  it('an orphan already terminal has nothing left to stop', () => {
    for (const status of ['succeeded', 'failed', 'canceled', 'aborted']) expect(judge(listed({ status }))).toBe('settled-orphan');
  });

  it('another model, a website run or an entry without a source is foreign, whatever it echoes', () => {
    expect(judge(listed({ model: 'black-forest-labs/flux-schnell' }))).toBe('foreign');
    expect(judge(listed({ model: null }))).toBe('foreign');
    expect(judge(listed({ source: 'web' }))).toBe('foreign');
    expect(judge(listed({ source: null }))).toBe('foreign');
  });

  it('a prediction an attempt holds is never an orphan, even when its input is that of another attempt', () => {
    const ledger = { ...emptyLedger, heldIds: new Set(['pred-1']), recovering: [{ inputFingerprint: fingerprintPredictionInput(ourInput), creatingAtMs: createdAtMs }] };
    expect(judge(listed(), ledger)).toBe('held');
  });

  it('the input of a CREATING attempt without a prediction ID leaves the entry to that attempt\'s recovery', () => {
    // Created long after the attempt went CREATING: only the fingerprint ties them.
    const ledger = { ...emptyLedger, recovering: [{ inputFingerprint: fingerprintPredictionInput(ourInput), creatingAtMs: createdAtMs - 3 * SPAN_MS }] };
    expect(judge(listed(), ledger)).toBe('recovering');
    // Keys the provider adds, in any order, still match.
    expect(judge(listed({ input: { seed: 7, ...ourInput } }), ledger)).toBe('recovering');
    expect(judge(listed({ input: inputFor('https://photos.s3.us-east-1.amazonaws.com/originals/p1/b.jpg') }), ledger)).toBe('running-orphan');
  });

  it('an echo that differs is left to a CREATING attempt whose recovery span holds it: it may be its purchase, rewritten', () => {
    const rewritten = listed({ input: { ...ourInput, output_compression: '92' } });
    const recovering = (creatingAtMs: number) => ({ ...emptyLedger, recovering: [{ inputFingerprint: 'another', creatingAtMs }] });
    expect(judge(rewritten, recovering(createdAtMs - SPAN_MS))).toBe('recovering');
    expect(judge(rewritten, recovering(createdAtMs + SPAN_MS))).toBe('recovering');
    expect(judge(rewritten, recovering(createdAtMs - SPAN_MS - 1))).toBe('running-orphan');
    expect(judge(listed({ created_at: 'not a date' }), recovering(createdAtMs))).toBe('recovering');
    // An attempt from before fingerprints shields its span too.
    expect(judge(rewritten, { ...emptyLedger, recovering: [{ inputFingerprint: null, creatingAtMs: createdAtMs }] })).toBe('recovering');
  });

  it('of two purchases with the input of one attempt, the one it does not hold is the orphan', () => {
    const ledger = { ...emptyLedger, heldIds: new Set(['pred-held']) };
    expect(judge(listed({ id: 'pred-held' }), ledger)).toBe('held');
    expect(judge(listed({ id: 'pred-unheld' }), ledger)).toBe('running-orphan');
  });

  it('another caller of our model on a shared account (no mark of ours) is never touched', () => {
    expect(judge(listed({ input: inputFor('https://cdn.other.example/room.jpg') }))).toBe('unowned');
    // Another bucket on the same endpoint is not ours either.
    expect(judge(listed({ input: inputFor('https://photos-2.s3.us-east-1.amazonaws.com/originals/a.jpg') }))).toBe('unowned');
    expect(judge(listed({ input: null }))).toBe('unowned');
    expect(judge(listed({ input: null, data_removed: true }))).toBe('unowned');
    // An image URL the provider rewrote to its own loses the mark: left alone, as recovery treats it as doubt.
    expect(judge(listed({ input: inputFor('https://replicate.delivery/pbxt/abc/a.jpg') }))).toBe('unowned');
  });
});

describe('carriesOurMark', () => {
  it('an echoed callback URL on our origin and callback path is a mark even without an input', () => {
    expect(carriesOurMark(listed({ input: null, webhook: 'https://api.example/api/webhooks/provider/staging/att-1' }), marks)).toBe(true);
    expect(carriesOurMark(listed({ input: null, webhook: 'https://other.example/api/webhooks/provider/staging/att-1' }), marks)).toBe(false);
    expect(carriesOurMark(listed({ input: null, webhook: 'https://api.example/hooks/att-1' }), marks)).toBe(false);
    expect(carriesOurMark(listed({ input: null, webhook: 'not a url' }), marks)).toBe(false);
  });

  it('an image URL compares origin and path, so a look-alike host or a query naming our bucket is no mark', () => {
    expect(carriesOurMark(listed({ input: inputFor('https://photos.s3.us-east-1.amazonaws.com.evil.example/a.jpg') }), marks)).toBe(false);
    expect(carriesOurMark(listed({ input: inputFor('https://evil.example/?u=https://photos.s3.us-east-1.amazonaws.com/a.jpg') }), marks)).toBe(false);
    expect(carriesOurMark(listed({ input: { ...ourInput, input_images: 'https://photos.s3.us-east-1.amazonaws.com/a.jpg' } }), marks)).toBe(false);
  });
});

describe('objectUrlPrefixOf', () => {
  it('keeps origin and bucket path of path-style and virtual-hosted presigned URLs', () => {
    expect(objectUrlPrefixOf('http://127.0.0.1:9000/staging-photos/probe?X-Amz-Signature=s', 'probe')).toBe('http://127.0.0.1:9000/staging-photos/');
    expect(objectUrlPrefixOf('https://photos.s3.us-east-1.amazonaws.com/probe?X-Amz-Date=1', 'probe')).toBe('https://photos.s3.us-east-1.amazonaws.com/');
  });

  it('refuses a URL not signed for the key', () => {
    expect(() => objectUrlPrefixOf('https://photos.s3.amazonaws.com/other', 'probe')).toThrow('does not end with the key');
  });
});

describe('listedOfModel', () => {
  it('keeps readable API predictions of the model only', () => {
    const page = {
      next: null,
      results: [listed({ id: 'a' }), listed({ id: 'b', source: 'web' }), listed({ id: 'c', model: 'x/y' }), { readable: false as const, created_at: null }],
    };
    expect(listedOfModel(page, model).map((p) => p.id)).toEqual(['a']);
  });
});

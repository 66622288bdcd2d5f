import { describe, expect, it } from '@jest/globals';
import { categorizeFailure, classifyTerminalPrediction, failureCategoryOf, isTerminal, TERMINAL_STATUSES } from './prediction-status';
import { PREDICTION_STATUSES } from './provider-wire';

describe('isTerminal', () => {
  it('treats succeeded, failed, canceled and aborted as terminal', () => {
    expect(PREDICTION_STATUSES.filter(isTerminal)).toEqual(['succeeded', 'failed', 'canceled', 'aborted']);
    expect(TERMINAL_STATUSES).toHaveLength(4);
  });

  it('treats starting and processing as in flight', () => {
    expect(isTerminal('starting')).toBe(false);
    expect(isTerminal('processing')).toBe(false);
  });
});

describe('classifyTerminalPrediction', () => {
  it('maps succeeded and canceled directly', () => {
    expect(classifyTerminalPrediction({ status: 'succeeded', error: null })).toBe('succeeded');
    expect(classifyTerminalPrediction({ status: 'canceled', error: null })).toBe('canceled');
  });

  it('treats aborted as retryable (the provider stopped it, our input was not judged)', () => {
    expect(classifyTerminalPrediction({ status: 'aborted', error: null })).toBe('retryable_failure');
    expect(failureCategoryOf({ status: 'aborted', error: null })).toBe('aborted');
  });

  it.each([
    ['Prediction timed out after 600 seconds', 'timeout'],
    ['E6716: Timeout while waiting for model', 'timeout'],
    ['Internal server error', 'internal'],
    ['Error code: 500 - upstream failure', 'internal'],
    ['Error code: 503 - The server is overloaded', 'internal'],
    ['Prediction interrupted; please retry (code: PA)', 'internal'],
    ['CUDA out of memory', 'internal'],
    ['Rate limit reached for images per minute', 'throttled'],
    ['Prediction failed: internal server error in the model runtime (simulated transient failure, retry later)', 'internal'],
  ])('treats "%s" as retryable (%s)', (error, category) => {
    expect(categorizeFailure(error)).toBe(category);
    expect(classifyTerminalPrediction({ status: 'failed', error })).toBe('retryable_failure');
  });

  it.each([
    ['The input or output was flagged as sensitive by the safety system (E005, simulated)', 'safety'],
    ["Error code: 400 - Your request was rejected as a result of our safety system", 'safety'],
    ['Content moderation rejected the prompt', 'safety'],
    ['Input validation failed: aspect_ratio must be one of 1:1, 3:2, 2:3', 'input'],
    ['Failed to download input image (HTTP 403)', 'input'],
    ['Failed to download input image: request timed out', 'input'],
    ['cannot identify image file', 'input'],
    ['Error code: 400 - Invalid image file or mode', 'input'],
  ])('treats "%s" as permanent (%s)', (error, category) => {
    expect(categorizeFailure(error)).toBe(category);
    expect(classifyTerminalPrediction({ status: 'failed', error })).toBe('permanent_failure');
  });

  it('treats an empty or unrecognised error as permanent (a second purchase needs evidence)', () => {
    expect(classifyTerminalPrediction({ status: 'failed', error: null })).toBe('permanent_failure');
    expect(classifyTerminalPrediction({ status: 'failed', error: '' })).toBe('permanent_failure');
    expect(classifyTerminalPrediction({ status: 'failed', error: 'Something odd happened' })).toBe('permanent_failure');
    expect(categorizeFailure('Something odd happened')).toBe('unknown');
  });

  it('refuses to classify a prediction that is still running', () => {
    expect(() => classifyTerminalPrediction({ status: 'processing', error: null })).toThrow('not terminal');
    expect(() => classifyTerminalPrediction({ status: 'starting', error: null })).toThrow('not terminal');
  });
});

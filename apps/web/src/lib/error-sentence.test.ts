import { readFileSync } from 'node:fs';
import { TRPCClientError } from '@trpc/client';
import { createTranslator } from 'use-intl/core';
import type enMessages from '../../messages/en.json';
import { HttpError } from './api-errors';
import { errorSentence } from './error-sentence';

function sentenceIn(locale: 'en' | 'es', error: unknown): string {
  const messages = JSON.parse(readFileSync(new URL(`../../messages/${locale}.json`, import.meta.url), 'utf8')) as typeof enMessages;
  return errorSentence(createTranslator({ locale, messages, namespace: 'errors' }), error);
}

/** A failed procedure as the tRPC client hands it to the UI. */
function procedureError(message: string, data: Record<string, unknown>): TRPCClientError<never> {
  return TRPCClientError.from({ error: { message, code: -32603, data } });
}

describe('errorSentence', () => {
  it('says in the UI language that the service is briefly unavailable, not the server English', () => {
    const unavailable = procedureError('The service is briefly unavailable.', { appCode: 'TEMPORARILY_UNAVAILABLE', retryAfterSeconds: 2 });
    expect(sentenceIn('es', unavailable)).toMatch(/^El servicio no está disponible/);
    expect(sentenceIn('en', new HttpError(503, 'TEMPORARILY_UNAVAILABLE', 'x', 2))).toMatch(/check first whether it was saved/);
  });

  it('spells out the wait of a rate limit and falls back to the server message', () => {
    expect(sentenceIn('en', procedureError('slow down', { appCode: 'TOO_MANY_REQUESTS', retryAfterSeconds: 3 }))).toBe(
      'Too many requests. Try again in 3 seconds.',
    );
    expect(sentenceIn('en', procedureError('Unit 4 already exists', { appCode: 'CONFLICT' }))).toBe('Unit 4 already exists');
    expect(sentenceIn('es', new Error('boom'))).toBe('Algo salió mal por nuestra parte. Vuelva a intentarlo.');
  });
});

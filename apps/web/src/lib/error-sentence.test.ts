import { readFileSync } from 'node:fs';
import { TRPCClientError } from '@trpc/client';
import { createTranslator } from 'use-intl/core';
import { ErrorCode, ErrorReason, IssueCode } from '@staging/domain/errors';
import { STAGING_ERROR_CODES } from '@staging/domain/staging-errors';
import type enMessages from '../../messages/en.json';
import { httpErrorFrom, HttpError } from './api-errors';
import { errorSentence, fieldError, issueText, stagingFailureText } from './error-sentence';

function translatorIn(locale: 'en' | 'es') {
  const messages = JSON.parse(readFileSync(new URL(`../../messages/${locale}.json`, import.meta.url), 'utf8')) as typeof enMessages;
  return createTranslator({ locale, messages, namespace: 'errors' });
}
const en = translatorIn('en');
const es = translatorIn('es');

/** A failed procedure as the tRPC client hands it to the UI. */
function procedureError(message: string, data: Record<string, unknown>): TRPCClientError<never> {
  return TRPCClientError.from({ error: { message, code: -32603, data } });
}

describe('errorSentence', () => {
  it('words every code, reason and issue code in both languages, never with the server English', () => {
    const serverEnglish = 'Server English that must never show';
    for (const t of [en, es]) {
      const sentences = [
        ...Object.values(ErrorCode).map((appCode) => errorSentence(t, procedureError(serverEnglish, { appCode }))),
        ...Object.values(ErrorReason).map((reason) => errorSentence(t, new HttpError(400, { code: 'BAD_REQUEST', reason, message: serverEnglish }))),
        ...Object.values(IssueCode).map((code) => issueText(t, { code, limit: 5 })),
      ];
      for (const sentence of sentences) {
        expect(sentence).not.toContain(serverEnglish);
        // next-intl answers a missing key with the key's path.
        expect(sentence).not.toMatch(/^errors\./);
      }
      expect(new Set(sentences).size).toBeGreaterThan(25);
    }
  });

  it("says the api's upload refusal in Spanish by its reason", () => {
    const body = JSON.stringify({ error: { code: 'BAD_REQUEST', reason: 'IMAGE_UNREADABLE', message: 'File must be a complete JPEG, PNG or WebP image' } });
    const refusal = httpErrorFrom(400, body, null);
    expect(errorSentence(es, refusal)).toBe('El archivo no es una imagen JPEG, PNG o WebP completa. Compruebe que se abre, o guárdela de nuevo como JPEG.');
    expect(errorSentence(en, refusal)).toMatch(/^The file is not a complete JPEG, PNG or WebP image/);
  });

  it('gives a general sentence for a code or reason this release does not know, and for an answer that is not ours', () => {
    expect(errorSentence(es, procedureError('Quota exceeded', { appCode: 'QUOTA_EXCEEDED' }))).toBe(es('unknown'));
    expect(errorSentence(en, httpErrorFrom(409, JSON.stringify({ error: { code: 'CONFLICT', reason: 'NEWER_REASON', message: 'x' } }), null))).toBe(en('conflict'));
    expect(errorSentence(es, httpErrorFrom(502, '<html>Bad gateway</html>', null))).toBe(es('internal'));
    expect(errorSentence(es, TRPCClientError.from(new Error('Failed to fetch')))).toBe(es('network'));
    expect(errorSentence(es, new Error('boom'))).toBe('Algo salió mal por nuestra parte. Vuelva a intentarlo.');
  });

  it('says that the service is briefly unavailable, and spells out the wait of a rate limit', () => {
    const unavailable = procedureError('The service is briefly unavailable.', { appCode: 'TEMPORARILY_UNAVAILABLE', retryAfterSeconds: 2 });
    expect(errorSentence(es, unavailable)).toMatch(/^El servicio no está disponible/);
    expect(errorSentence(en, procedureError('slow down', { appCode: 'TOO_MANY_REQUESTS', retryAfterSeconds: 3 }))).toBe('Too many requests. Try again in 3 seconds.');
    expect(errorSentence(es, httpErrorFrom(429, '', '1'))).toBe('Demasiadas solicitudes. Vuelva a intentarlo en 1 segundo.');
  });

  it('words field issues from their code and limit, in the UI language', () => {
    const refused = procedureError('Invalid input', {
      appCode: 'BAD_REQUEST',
      issues: [
        { path: ['unitNumber'], message: 'Too big: expected string to have <=50 characters', code: 'TOO_LONG', limit: 50 },
        { path: ['priceAdjustment'], message: 'Too big', code: 'TOO_BIG', limit: 10_000_000 },
      ],
    });
    expect(fieldError(es, refused, 'unitNumber')).toBe('Como máximo 50 caracteres.');
    expect(fieldError(es, refused, 'priceAdjustment')).toBe('Como máximo 10.000.000.');
    expect(fieldError(en, refused, 'priceAdjustment')).toBe('At most 10,000,000.');
    expect(fieldError(es, refused, 'notes')).toBeUndefined();
    // Without a form field to show it at, the first issue says more than "not accepted".
    expect(errorSentence(es, refused)).toBe('Como máximo 50 caracteres.');
    const range = procedureError('out of range', { appCode: 'BAD_REQUEST', issues: [{ path: ['amount'], message: 'x', code: 'OUT_OF_RANGE', limit: 1_000_000 }] });
    expect(errorSentence(en, range)).toBe('Out of range: the result must stay between −1,000,000 and +1,000,000.');
    // An issue from a server that sends no code, or one this release does not know.
    expect(issueText(es, {})).toBe('No es un valor válido.');
    expect(issueText(es, { code: 'SOMETHING_NEW' as IssueCode })).toBe('No es un valor válido.');
  });
});

describe('stagingFailureText', () => {
  it("explains every worker error code in both languages, each differently", () => {
    for (const t of [en, es]) {
      const texts = STAGING_ERROR_CODES.map((code) => stagingFailureText(t, code));
      for (const text of texts) expect(text).not.toMatch(/^errors\.|[A-Z]{2,}_[A-Z]/);
      expect(new Set(texts).size).toBe(STAGING_ERROR_CODES.length);
    }
    expect(stagingFailureText(en, 'PURCHASE_UNCONFIRMED')).toMatch(/could not confirm whether.*you may submit again/);
  });

  it('never shows a raw code, even an unknown one', () => {
    expect(stagingFailureText(en, 'SOMETHING_NEW')).toMatch(/does not know/);
    expect(stagingFailureText(es, null)).toMatch(/motivo/);
    expect(stagingFailureText(en, 'toString')).toMatch(/does not know/);
  });
});

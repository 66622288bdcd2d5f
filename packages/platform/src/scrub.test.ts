import fc from 'fast-check';
import { REDACTED, redactUrl, scrubText, scrubValue, TEXT_RULES } from './scrub';

describe('redactUrl', () => {
  it.each([
    ['https://bucket.s3.amazonaws.com/a/b.jpg?X-Amz-Signature=abc&X-Amz-Credential=k', 'https://bucket.s3.amazonaws.com/a/b.jpg'],
    ['https://replicate.delivery/xezq/out.webp#frag', 'https://replicate.delivery/xezq/out.webp'],
    ['https://user:pass@example.com/path', 'https://example.com/path'],
    ['postgres://app:hunter2@db:5432/app?sslmode=require', 'postgres://db:5432/app'],
    ['https://example.com/plain', 'https://example.com/plain'],
    ['/api/webhooks/provider/staging/abc?sig=1', '/api/webhooks/provider/staging/abc'],
    ['relative/path#x', 'relative/path'],
  ])('%s → %s', (input, output) => {
    expect(redactUrl(input)).toBe(output);
  });
});

describe('scrubText', () => {
  it.each([
    ['GET https://s3.example.com/k.jpg?X-Amz-Signature=deadbeef failed', 'GET https://s3.example.com/k.jpg failed', 'deadbeef'],
    ['connect postgres://app:hunter2@db:5432/app refused', `connect postgres://${REDACTED}@db:5432/app refused`, 'hunter2'],
    ['Authorization: Bearer r8_abcDEF123', `Authorization: Bearer ${REDACTED}`, 'r8_abcDEF123'],
    ['token r8_abcDEF123 rejected', `token ${REDACTED} rejected`, 'abcDEF123'],
    ['secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw bad', `secret whsec_${REDACTED} bad`, 'MfKQ9r8'],
    ['image data:image/png;base64,iVBORw0KGgo= end', 'image [data uri] end', 'iVBORw0KGgo'],
  ])('%s', (input, output, secret) => {
    expect(scrubText(input)).toBe(output);
    expect(scrubText(input)).not.toContain(secret);
  });

  it('gives what every rule applied in turn gives, for any text (the needle shortcut changes nothing)', () => {
    const everyRule = (text: string) =>
      TEXT_RULES.reduce((out, rule) => out.replace(rule.pattern, rule.replacement), text);
    // Pieces and whole matches of every rule, shuffled with other text, so that many strings hold
    // near-matches and matches.
    const piece = fc.oneof(
      fc.constantFrom('://', '@', '?', '#', ' ', 'http', 'https', 'postgres', 'Bearer', 'basic', 'TOKEN', 'Token'),
      fc.constantFrom('whsec_', 'r8_', 'data:', 'DATA:', 'image/png', ';base64,', 'abc', '123', '='),
      fc.constantFrom('postgres://u:p@db/x', 'HTTPS://h.example/k?sig=1', 'Bearer abc.def', 'Basic QUJD', 'Token abc'),
      fc.constantFrom('whsec_QUJD', 'r8_abc', 'DATA:image/png;base64,iVBO='),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        expect(scrubText(text)).toBe(everyRule(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it('leaves ordinary text alone', () => {
    const text = 'job 4b1c prediction p_123 finished in 14 s (https://api.example.com/v1/predictions)';
    expect(scrubText(text)).toBe(text);
  });
});

describe('scrubValue', () => {
  it('redacts secret-named keys at any depth, keeps counts and flags', () => {
    const input = {
      jobId: 'j1',
      providerApiToken: 'r8_x',
      nested: { deeper: { webhookSigningSecret: 'whsec_x', password: 'pw', headers: { authorization: 'Basic x', cookie: 'sid=1' } } },
      list: [{ accessToken: 't' }],
      tokens: 1200,
      hasSecret: true,
    };
    expect(scrubValue(input)).toEqual({
      jobId: 'j1',
      providerApiToken: REDACTED,
      nested: { deeper: { webhookSigningSecret: REDACTED, password: REDACTED, headers: { authorization: REDACTED, cookie: REDACTED } } },
      list: [{ accessToken: REDACTED }],
      tokens: 1200,
      hasSecret: true,
    });
  });

  it('replaces bytes with their size and strips queries of URL-named keys', () => {
    expect(
      scrubValue({ body: Buffer.from('raw image bytes'), outputUrl: 'https://cdn.example.com/x.jpg?sig=1', url: '/a?b=c' }),
    ).toEqual({ body: '[15 bytes]', outputUrl: 'https://cdn.example.com/x.jpg', url: '/a' });
  });

  it('does not walk class instances and never passes deep structures through', () => {
    const date = new Date(0);
    let deep: Record<string, unknown> = { token: 'leak' };
    for (let i = 0; i < 20; i += 1) deep = { inner: deep };
    const out = scrubValue({ date, deep });
    expect((out as { date: unknown }).date).toBe(date);
    expect(JSON.stringify(out)).not.toContain('leak');
  });
});

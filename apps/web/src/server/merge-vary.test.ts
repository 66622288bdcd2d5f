import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mergeVary, mergeVaryWhenSet } from './merge-vary';

describe('Vary merged, not replaced', () => {
  it('keeps every field of both values once, whatever their case', () => {
    expect(mergeVary('Accept-Language, Cookie', 'rsc, next-router-state-tree')).toBe('Accept-Language, Cookie, rsc, next-router-state-tree');
    expect(mergeVary(['Accept-Language', 'cookie'], 'Cookie, accept-language, rsc')).toBe('Accept-Language, cookie, rsc');
    expect(mergeVary(undefined, 'rsc')).toBe('rsc');
  });

  it('makes a later setHeader of Vary add to an earlier one on a real response', async () => {
    mergeVaryWhenSet();
    const server = createServer((_request: IncomingMessage, response: ServerResponse) => {
      response.setHeader('Vary', 'Accept-Language, Cookie');
      response.setHeader('Vary', 'rsc, next-router-state-tree');
      response.setHeader('Content-Type', 'text/plain');
      response.setHeader('Content-Type', 'text/html');
      response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(answer.headers.get('vary')).toBe('Accept-Language, Cookie, rsc, next-router-state-tree');
      expect(answer.headers.get('content-type')).toBe('text/html');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

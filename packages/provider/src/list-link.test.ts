import { describe, expect, it } from '@jest/globals';
import { readListLink } from './list-link';

describe('readListLink', () => {
  it.each([
    ['Replicate’s own absolute link', 'https://api.replicate.com/v1/predictions?cursor=cD0yMDI2', 'https://api.replicate.com/v1'],
    ['a default port written out', 'https://api.replicate.com:443/v1/predictions?cursor=c', 'https://api.replicate.com/v1'],
    ['a default port written out in the config', 'https://api.replicate.com/v1/predictions?cursor=c', 'https://api.replicate.com:443/v1/'],
    ['the host in capitals, with the root dot', 'https://API.Replicate.com./v1/predictions?cursor=c', 'https://api.replicate.com/v1'],
    ['a trailing slash on the path', 'https://api.replicate.com/v1/predictions/?cursor=c', 'https://api.replicate.com/v1'],
    ['localhost for a configured 127.0.0.1', 'http://localhost:4200/v1/predictions?cursor=c', 'http://127.0.0.1:4200/v1'],
    ['127.0.0.1 for a configured localhost', 'http://127.0.0.1:4200/v1/predictions?cursor=c', 'http://localhost:4200/v1'],
    ['[::1] for a configured 127.0.0.1', 'http://[::1]:4200/v1/predictions?cursor=c', 'http://127.0.0.1:4200/v1'],
  ])('follows %s, keeping only its query', (_spelling, link, base) => {
    expect(readListLink(link, base)).toEqual({ kind: 'on-api', query: new URL(link).search });
  });

  it.each([
    ['another host', 'https://evil.example/v1/predictions?cursor=c', 'https://api.replicate.com/v1', 'https://evil.example'],
    ['another scheme', 'http://api.replicate.com/v1/predictions?cursor=c', 'https://api.replicate.com/v1', 'http://api.replicate.com'],
    ['another port', 'https://api.replicate.com:8443/v1/predictions?cursor=c', 'https://api.replicate.com/v1', 'https://api.replicate.com:8443'],
    ['a sibling subdomain', 'https://replicate.com/v1/predictions?cursor=c', 'https://api.replicate.com/v1', 'https://replicate.com'],
    // Loopback spellings are one host only for a configured loopback host: DNS is never asked.
    ['localhost for a public API', 'https://localhost/v1/predictions?cursor=c', 'https://api.replicate.com/v1', 'https://localhost'],
    ['a loopback address for a configured name that may resolve to it', 'http://127.0.0.1:4200/v1/predictions', 'http://sim.internal:4200/v1', 'http://127.0.0.1:4200'],
    ['credentials in the link', 'https://user:pw@api.replicate.com/v1/predictions?cursor=c', 'https://api.replicate.com/v1', 'https://api.replicate.com'],
    ['another path', 'https://api.replicate.com/v1/trainings?cursor=c', 'https://api.replicate.com/v1', 'https://api.replicate.com'],
    ['text that is no URL', '/v1/predictions?cursor=c', 'https://api.replicate.com/v1', 'not a URL'],
  ])('refuses %s, naming its origin', (_what, link, base, origin) => {
    expect(readListLink(link, base)).toEqual({ kind: 'refused', origin });
  });
});

import { isInternalHost, webhookBaseUrlProblems } from './webhook-base-url';

const strict = { allowInsecure: false };
const insecure = { allowInsecure: true };

describe('webhookBaseUrlProblems (strict)', () => {
  it.each([
    'https://api.example.com',
    'https://api.example.com:8443',
    'https://staging-api.example.co.uk',
    'https://xn--bcher-kva.example',
    'https://8.8.8.8',
    'https://172.15.255.255',
    'https://172.32.0.1',
    'https://169.253.0.1',
    'https://11.0.0.1',
    'https://192.169.0.1',
    'https://[2606:4700:4700::1111]',
  ])('accepts %s', (value) => {
    expect(webhookBaseUrlProblems(value, strict)).toEqual([]);
  });

  it.each([
    ['http://api.example.com', 'must use https'],
    ['https://api.example.com/', 'must not end with a trailing slash'],
    ['https://api.example.com/api', 'must be an origin without a path'],
    ['https://api.example.com/api/webhooks/provider/staging', 'must be an origin without a path'],
    ['https://api.example.com?x=1', 'must not contain a query string'],
    ['https://api.example.com#frag', 'must not contain a fragment'],
    ['https://user:pw@api.example.com', 'must not contain credentials'],
    ['api.example.com', 'must be an absolute URL'],
    ['//api.example.com', 'must be an absolute URL'],
    ['ftp://api.example.com', 'must use https'],
    ['https://localhost', 'internal host'],
    ['https://LOCALHOST', 'internal host'],
    ['https://localhost.', 'internal host'],
    ['https://app.localhost', 'internal host'],
    ['https://127.0.0.1', 'internal host'],
    ['https://127.8.9.10', 'internal host'],
    ['https://2130706433', 'internal host'],
    ['https://0x7f.1', 'internal host'],
    ['https://[::1]', 'internal host'],
    ['https://[::]', 'internal host'],
    ['https://[::ffff:127.0.0.1]', 'internal host'],
    ['https://[::ffff:10.0.0.1]', 'internal host'],
    ['https://0.0.0.0', 'internal host'],
    ['https://10.1.2.3', 'internal host'],
    ['https://172.16.0.1', 'internal host'],
    ['https://172.31.255.255', 'internal host'],
    ['https://192.168.1.1', 'internal host'],
    ['https://169.254.169.254', 'internal host'],
    ['https://100.64.0.1', 'internal host'],
    ['https://[fe80::1]', 'internal host'],
    ['https://[febf::1]', 'internal host'],
    ['https://[fc00::1]', 'internal host'],
    ['https://[fd12:3456::1]', 'internal host'],
    ['https://api.internal', 'internal host'],
    ['https://svc.cluster.internal', 'internal host'],
    ['https://printer.local', 'internal host'],
    ['https://api', 'internal host'],
    ['https://router.home.arpa', 'internal host'],
  ])('refuses %s (%s)', (value, rule) => {
    const problems = webhookBaseUrlProblems(value, strict);
    expect(problems).toEqual([expect.stringContaining(rule)]);
  });

  it('reports every broken rule of one value', () => {
    expect(webhookBaseUrlProblems('http://10.0.0.1/hooks?x=1', strict)).toEqual([
      'must use https',
      'must be an origin without a path',
      'must not contain a query string',
      expect.stringContaining('internal host'),
    ]);
  });
});

describe('webhookBaseUrlProblems with the development override', () => {
  it.each(['http://127.0.0.1:4000', 'http://localhost:4000', 'https://api.internal', 'http://api:4000'])('accepts %s', (value) => {
    expect(webhookBaseUrlProblems(value, insecure)).toEqual([]);
  });

  it.each([
    ['http://127.0.0.1:4000/', 'must not end with a trailing slash'],
    ['http://127.0.0.1:4000/api', 'must be an origin without a path'],
    ['http://127.0.0.1:4000?a=b', 'must not contain a query string'],
    ['ftp://127.0.0.1', 'must use https or http'],
    ['127.0.0.1:4000', 'must be an absolute URL'],
  ])('still refuses %s (%s)', (value, rule) => {
    expect(webhookBaseUrlProblems(value, insecure)).toEqual([expect.stringContaining(rule)]);
  });
});

describe('isInternalHost', () => {
  it.each([
    ['example.com', false],
    ['93.184.216.34', false],
    ['224.0.0.1', true],
    ['255.255.255.255', true],
    ['[ff02::1]', true],
    ['[2001:db8::1]', false],
    ['[::ffff:808:808]', false],
    ['[::ffff:a00:1]', true],
    ['[1:2:3:4:5:6:7:8:9]', true],
  ])('%s → %p', (host, internal) => {
    expect(isInternalHost(host)).toBe(internal);
  });
});

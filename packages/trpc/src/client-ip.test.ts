import { clientIpFromForwardedFor } from './client-ip';

describe('clientIpFromForwardedFor', () => {
  it.each([
    [null, 'unknown'],
    ['', 'unknown'],
    ['203.0.113.7', '203.0.113.7'],
    // A forged left part is ignored: the right-most hop that is not our proxy is the client.
    ['198.51.100.1, 203.0.113.7', '203.0.113.7'],
    ['198.51.100.1, 203.0.113.7, 10.0.0.5, 127.0.0.1', '203.0.113.7'],
    ['2001:db8::1, fd00::2', '2001:db8::1'],
    // Only our own hops: the request came from inside, the left-most hop is the client.
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:127.0.0.1', '::ffff:127.0.0.1'],
    ['192.168.1.20, 10.0.0.5', '192.168.1.20'],
  ])('%p → %s', (header, client) => {
    expect(clientIpFromForwardedFor(header)).toBe(client);
  });
});

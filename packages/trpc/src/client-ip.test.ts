import { clientAddressFromHeaders, clientIpFromForwardedFor } from './client-ip';

describe('clientIpFromForwardedFor', () => {
  it('takes the right-most hop that is not one of our proxies: a forged left part is ignored', () => {
    expect(clientIpFromForwardedFor('203.0.113.7')).toBe('203.0.113.7');
    expect(clientIpFromForwardedFor('198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
    expect(clientIpFromForwardedFor('198.51.100.1, 203.0.113.7, 10.0.0.5, 127.0.0.1')).toBe('203.0.113.7');
    expect(clientIpFromForwardedFor('2001:db8::1, fd00::2')).toBe('2001:db8::1');
  });

  it('with only our own hops the request came from inside: the left-most hop is the client', () => {
    expect(clientIpFromForwardedFor('127.0.0.1')).toBe('127.0.0.1');
    expect(clientIpFromForwardedFor('::ffff:127.0.0.1')).toBe('::ffff:127.0.0.1');
    expect(clientIpFromForwardedFor('192.168.1.20, 10.0.0.5')).toBe('192.168.1.20');
  });

  it('names an unknown client when there is no header', () => {
    expect(clientIpFromForwardedFor(null)).toBe('unknown');
    expect(clientIpFromForwardedFor(' , ')).toBe('unknown');
  });
});

describe('clientAddressFromHeaders', () => {
  it('reads X-Forwarded-For of a request', () => {
    expect(clientAddressFromHeaders(new Headers({ 'x-forwarded-for': '198.51.100.1, 203.0.113.7, 10.0.0.5' }))).toBe('203.0.113.7');
    expect(clientAddressFromHeaders(new Headers())).toBe('unknown');
  });
});

import { describe, expect, it } from 'vitest';
import { clientNetwork } from './client-network.ts';

describe('clientNetwork', () => {
  it('keeps an IPv4 address, also when written IPv4-mapped', () => {
    expect(clientNetwork('10.55.55.55')).toBe('10.55.55.55');
    expect(clientNetwork('::ffff:10.55.55.55')).toBe('10.55.55.55');
    expect(clientNetwork('::FFFF:10.55.55.55')).toBe('10.55.55.55');
  });

  it('counts an IPv6 address as its /64, however it is written', () => {
    const network = '2001:db8:1:2::/64';
    expect(clientNetwork('2001:db8:1:2::1')).toBe(network);
    expect(clientNetwork('2001:0db8:0001:0002:ffff:eeee:dddd:cccc')).toBe(network);
    expect(clientNetwork('2001:db8:1:2:0:0:0:ff')).toBe(network);
    expect(clientNetwork('2001:db8:1:3::1')).not.toBe(network);
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientNetwork('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('leaves anything else as it is', () => {
    expect(clientNetwork('unknown')).toBe('unknown');
  });
});

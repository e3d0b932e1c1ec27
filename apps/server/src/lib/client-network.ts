import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network a client address stands for, as the key of per-address limits (registrations, sign-in
 * failures, reset codes): an IPv4 address as it is (also when written IPv4-mapped, `::ffff:10.0.0.1`), an
 * IPv6 address as its /64 — one household or server gets a whole /64, so counting single IPv6 addresses
 * would let one person rotate through billions of them.
 */
export function clientNetwork(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, without leading zeros ('::' filled in; a zone id dropped). */
function expandIPv6(address: string): string[] {
  const bare = address.split('%')[0]!;
  const [head, tail] = bare.includes('::') ? bare.split('::') : [bare, undefined];
  const groupsOf = (part: string | undefined) => (part ? part.split(':') : []);
  let left = groupsOf(head);
  let right = groupsOf(tail);
  // A trailing dotted IPv4 part counts as two groups.
  const last = (tail === undefined ? left : right).at(-1);
  if (last && last.includes('.')) {
    const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
    const groups = [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    if (tail === undefined) left = [...left.slice(0, -1), ...groups];
    else right = [...right.slice(0, -1), ...groups];
  }
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((group) => Number.parseInt(group, 16).toString(16));
}

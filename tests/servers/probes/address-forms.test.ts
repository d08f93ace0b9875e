import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config';
import { runCheck } from '../../../src/servers/probes';
import {
  canonicalIp,
  embeddedIpv4s,
  refusedReason,
  resolveTarget,
  targetPolicy,
} from '../../../src/servers/probes/targets';
import { check, fixedLookup, testContext, testPolicy } from './context';

/**
 * The address forms a health check target may hide an IPv4 address in, beside those targets.test.ts covers:
 * IPv4-translated (::ffff:0:a.b.c.d) and local-use NAT64 (64:ff9b:1::/48, any of its RFC 6052 layouts); and the
 * metadata addresses of Azure (168.63.129.16) and Oracle Cloud (192.0.0.192) in the default deny list.
 */
const everything = testPolicy('0.0.0.0/0,::/0');

describe('IPv4-translated addresses (::ffff:0:a.b.c.d)', () => {
  it('answer for the IPv4 address they carry', () => {
    expect(canonicalIp('::ffff:0:169.254.169.254')).toBe('::ffff:0:a9fe:a9fe');
    expect(embeddedIpv4s('::ffff:0:a9fe:a9fe')).toEqual(['169.254.169.254']);
    expect(refusedReason('::ffff:0:169.254.169.254', everything)).toBe(
      '::ffff:0:a9fe:a9fe carries 169.254.169.254: 169.254.169.254 is in a denied network (HEALTH_CHECK_DENY_CIDRS)',
    );
    expect(refusedReason('::ffff:0:7f00:1', testPolicy(null))).toMatch(/carries 127\.0\.0\.1: .*local address/);
    expect(refusedReason('::ffff:0:c000:20a', testPolicy(null))).toBeNull(); // 192.0.2.10
  });
});

describe('local-use NAT64 (64:ff9b:1::/48)', () => {
  it('the IPv4 address in the last 32 bits (a /96 prefix inside it), refused like 64:ff9b::/96', () => {
    expect(refusedReason('64:ff9b:1::a9fe:a9fe', everything)).toMatch(
      /^64:ff9b:1::a9fe:a9fe carries 169\.254\.169\.254: .*denied network/,
    );
    expect(refusedReason('64:ff9b:1:ab:cd::7f00:1', testPolicy(null))).toMatch(/carries 127\.0\.0\.1/);
    expect(embeddedIpv4s('64:ff9b:1::c000:20a')).toEqual(['192.0.2.10']);
    expect(refusedReason('64:ff9b:1::c000:20a', testPolicy(null))).toBeNull();
  });

  it('and where a /48, /56 or /64 prefix puts it (bits 64–71 skipped), refused too', () => {
    // 169.254.169.254 after a /48 prefix: a9fe, then 00 (bits 64–71), a9fe.
    expect(embeddedIpv4s('64:ff9b:1:a9fe:a9:fe00::')).toContain('169.254.169.254');
    expect(refusedReason('64:ff9b:1:a9fe:a9:fe00::', everything)).toMatch(/carries 169\.254\.\d+\.\d+: .*denied/);
    // After a /56 prefix (64:ff9b:1:00xx::/56): a9, then 00, fea9fe.
    expect(refusedReason('64:ff9b:1:a9:fe:a9fe::', everything)).toMatch(/carries 169\.254\.169\.254/);
    // After a /64 prefix: 00, then a9fea9fe.
    expect(refusedReason('64:ff9b:1:5:a9:fea9:fe00:0', everything)).toMatch(/carries 169\.254\.169\.254/);
  });

  it('is refused through a name as well, however the name answers', async () => {
    const lookup = fixedLookup({ 'sneaky.test': ['203.0.113.9', '64:ff9b:1::a9fe:a9fe'] });
    expect(await resolveTarget('sneaky.test', everything, lookup)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^Refused: 64:ff9b:1::a9fe:a9fe carries 169\.254\.169\.254/),
    });
    const r = await runCheck(check({ kind: 'tcp', target: '::ffff:0:169.254.169.254', port: 80 }), testContext());
    expect(r.status).toBe('failing');
    expect(r.error).toMatch(/Refused: .*carries 169\.254\.169\.254/);
  });
});

describe('the default deny list', () => {
  it("holds Azure's 168.63.129.16 and Oracle Cloud's 192.0.0.192, even when everything else is allowed", () => {
    const policy = targetPolicy(loadConfig({ HEALTH_CHECK_ALLOW_CIDRS: '0.0.0.0/0,::/0' }));
    for (const address of ['168.63.129.16', '192.0.0.192', '::ffff:168.63.129.16', '64:ff9b::c000:c0'])
      expect(refusedReason(address, policy), address).toMatch(/denied network \(HEALTH_CHECK_DENY_CIDRS\)/);
    expect(refusedReason('168.63.129.17', policy)).toBeNull();
    expect(refusedReason('192.0.0.193', policy)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { parseHostsAndCidrs } from '../../src/http/cidr-list';
import { resolveTarget } from '../../src/servers/probes/targets';
import { policyFor, targetProblem, urlProblem } from '../../src/webhooks/targets';

/**
 * WEBHOOK_ALLOW_HOSTS: listed names (and subdomains) reach any address but link-local, metadata and loopback (unless
 * the name is localhost); anything else must resolve into a listed network. Lookups are faked here.
 */
const allow = parseHostsAndCidrs('hooks.example.com, localhost, 10.20.0.0/16, 127.0.0.1, fd00::/8');
const answers =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
const vet = (host: string, ...addresses: string[]) =>
  resolveTarget(host, policyFor(host, allow), answers(...addresses));

describe('the setting', () => {
  it('parses names and networks, and stops start-up on anything else', () => {
    expect(allow.hosts).toEqual(['hooks.example.com', 'localhost']);
    expect(allow.entries).toEqual(['hooks.example.com', 'localhost', '10.20.0.0/16', '127.0.0.1', 'fd00::/8']);
    expect(parseHostsAndCidrs('')).toEqual({ entries: [], hosts: [], cidrs: undefined });
    expect(loadConfig({ WEBHOOK_ALLOW_HOSTS: 'Hooks.Example.com' }).webhookAllowHosts.hosts).toEqual([
      'hooks.example.com',
    ]);
    expect(() => loadConfig({ WEBHOOK_ALLOW_HOSTS: 'hooks.example.com, not a host' })).toThrow(
      /WEBHOOK_ALLOW_HOSTS must be host names, IP addresses or CIDRs: "not a host"/,
    );
    expect(() => loadConfig({ WEBHOOK_ALLOW_HOSTS: '10.0.0.0/40' })).toThrow(/WEBHOOK_ALLOW_HOSTS/);
    expect(loadConfig({}).webhookAllowHosts.entries).toEqual([]);
  });
});

describe('the address policy', () => {
  it('a listed name (or a subdomain) may reach public and private addresses', async () => {
    expect(await vet('hooks.example.com', '203.0.113.5')).toMatchObject({ ok: true, address: '203.0.113.5' });
    expect(await vet('eu.hooks.example.com', '10.99.0.1')).toMatchObject({ ok: true });
  });

  it('never link-local, metadata, or loopback through a public name', async () => {
    for (const address of ['169.254.169.254', 'fe80::1', 'fd00:ec2::254', '100.100.100.200', '127.0.0.1', '::1'])
      expect((await vet('hooks.example.com', address)).ok, address).toBe(false);
    expect(await vet('hooks.example.com', '169.254.169.254')).toMatchObject({
      reason: expect.stringMatching(/link-local and cloud metadata addresses are never called/),
    });
    // A name that answers one good and one metadata address is refused as a whole.
    expect((await vet('hooks.example.com', '203.0.113.5', '169.254.169.254')).ok).toBe(false);
  });

  it("never Azure's or Oracle's metadata address, nor anything hidden in an IPv4-translated or local NAT64 form", async () => {
    const hidden = [
      '168.63.129.16',
      '192.0.0.192',
      '::ffff:0:a9fe:a9fe', // IPv4-translated 169.254.169.254
      '::ffff:0:a83f:8110', // IPv4-translated 168.63.129.16
      '64:ff9b:1::a9fe:a9fe', // local-use NAT64
      '64:ff9b:1::c000:c0', // local-use NAT64 192.0.0.192
      '::ffff:0:7f00:1', // loopback, through a public name
      '64:ff9b:1::7f00:1',
    ];
    for (const address of hidden) {
      const vetted = await vet('hooks.example.com', address);
      expect(vetted.ok, address).toBe(false);
    }
    expect(await vet('hooks.example.com', '168.63.129.16')).toMatchObject({
      reason: expect.stringMatching(/link-local and cloud metadata addresses are never called/),
    });
    // Not even when a listed network holds them.
    const wide = parseHostsAndCidrs('168.63.0.0/16, 192.0.0.0/24');
    expect(await resolveTarget('168.63.129.16', policyFor('168.63.129.16', wide))).toMatchObject({ ok: false });
    expect(await resolveTarget('192.0.0.192', policyFor('192.0.0.192', wide))).toMatchObject({ ok: false });
    expect(await resolveTarget('168.63.129.17', policyFor('168.63.129.17', wide))).toMatchObject({ ok: true });
  });

  it('a listed name may reach private networks (an internal chat server), and loopback only when it is localhost', async () => {
    // The policy alone: `answers` is a stand-in resolver, and nothing here connects to these addresses.
    for (const address of ['10.1.2.3', '172.16.5.5', '192.168.1.20', 'fd12::5', '64:ff9b:1::a01:203'])
      expect((await vet('chat.hooks.example.com', address)).ok, address).toBe(true);
    expect((await vet('hooks.example.com', '127.0.0.1')).ok).toBe(false);
    expect((await vet('localhost', '127.0.0.1')).ok).toBe(true);
    expect((await vet('localhost', '169.254.169.254')).ok).toBe(false);
  });

  it('localhost when listed; any other name or address only inside a listed network', async () => {
    expect(await vet('localhost', '127.0.0.1')).toMatchObject({ ok: true });
    expect(await vet('relay.corp.example', '10.20.3.4')).toMatchObject({ ok: true });
    expect(await vet('relay.corp.example', '10.21.3.4')).toMatchObject({
      ok: false,
      reason: 'Refused: 10.21.3.4 is outside the allowed networks (WEBHOOK_ALLOW_HOSTS)',
    });
    expect(await vet('127.0.0.1')).toMatchObject({ ok: true });
    expect(await vet('127.0.0.2')).toMatchObject({ ok: false });
    // fd00::/8 is listed, yet the AWS metadata address inside it is never called.
    expect(await vet('[fd00:ec2::254]')).toMatchObject({ ok: false });
    expect(await vet('[fd00::5]')).toMatchObject({ ok: true });
  });

  it('registration: literal addresses are checked without a lookup', async () => {
    expect(urlProblem('https://203.0.113.5/x', allow)).toBeNull();
    expect(await targetProblem('https://203.0.113.5/x', allow)).toMatch(
      /203\.0\.113\.5 is outside the allowed networks/,
    );
    expect(await targetProblem('https://10.20.0.9/x', allow)).toBeNull();
    expect(await targetProblem('https://hooks.example.com/x', allow)).toBeNull();
  });
});

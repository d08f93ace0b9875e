import dns from 'node:dns';
import { lookup } from 'node:dns/promises';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { resolveTarget } from '../../src/servers/probes/targets';
import { parseCidrList } from '../../src/http/cidr-list';

describe('name lookups in tests', () => {
  it('resolve localhost and refuse every other name without asking a nameserver', async () => {
    expect((await lookup('localhost')).address).toMatch(/^(127\.|::1)/);
    await expect(lookup('web-01.corp.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(dns.promises.lookup('example.org')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    const viaCallback = await new Promise<string | undefined>((resolve) =>
      dns.lookup('db.example.net', (err) => resolve((err as NodeJS.ErrnoException | null)?.code)),
    );
    expect(viaCallback).toBe('ENOTFOUND');
  });

  it('covers sockets opened by name and the probes’ resolver', async () => {
    const code = await new Promise<string | undefined>((resolve) => {
      const socket = connect({ host: 'web-01.corp.example.com', port: 22 });
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code));
      socket.once('connect', () => resolve('connected'));
    });
    expect(code).toBe('ENOTFOUND');
    const policy = { deny: parseCidrList('169.254.0.0/16') };
    expect(await resolveTarget('web-01.corp.example.com', policy)).toMatchObject({ ok: false });
  });
});

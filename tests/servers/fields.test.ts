import { describe, expect, it } from 'vitest';
import { checkServerForm, isIp, serverInput } from '../../src/servers/schemas';

/** The island's zod-free check must agree with the API's zod schema. */
describe('checkServerForm matches serverInput', () => {
  const cases: Record<string, string>[] = [
    { name: 'ok' },
    { name: '' },
    { name: 'x'.repeat(101) },
    { name: 'a', hostname: 'web-01.corp.example.com' },
    { name: 'a', hostname: 'bad_host' },
    { name: 'a', ipAddress: '127.0.0.1' },
    { name: 'a', ipAddress: '127.1' },
    { name: 'a', ipAddress: 'fe80::1' },
    { name: 'a', ipAddress: '1:2:3:4:5:6:7:8:9' },
    { name: 'a', monitorPort: '0' },
    { name: 'a', monitorPort: '443' },
    { name: 'a', monitorPort: 'abc' },
    { name: 'a', environment: 'qa' },
    { name: 'a', status: 'maintenance' },
    { name: 'a', notes: 'n'.repeat(5001) },
    { name: 'a', monitorPort: '22.5' },
    { name: 'a', serverType: 't'.repeat(51) },
  ];
  it.each(cases.map((c) => [JSON.stringify(c).slice(0, 60), c] as const))('%s', (_label, form) => {
    const mine = checkServerForm(form);
    const zod = serverInput.safeParse(form);
    expect(mine.data !== null).toBe(zod.success);
    if (zod.success) expect(mine.data).toEqual(zod.data);
    else expect(Object.values(mine.errors)).toContain(zod.error.issues[0].message);
  });

  it('knows addresses', () => {
    for (const ok of ['127.0.0.1', '::1', '::', '2001:db8::8a2e:370:7334', '::ffff:127.0.0.1', '1:2:3:4:5:6:7:8'])
      expect(isIp(ok), ok).toBe(true);
    for (const bad of ['', '127.0.0', '127.0.0.01', '1:2:3:4:5:6:7:8:9', '1::2::3', 'g::1', '1:2:3:4:5:6:7::8:9'])
      expect(isIp(bad), bad).toBe(false);
  });
});

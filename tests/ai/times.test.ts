import { describe, expect, it } from 'vitest';
import { when } from '../../src/ai/builtin/md';
import { quoteToolResult } from '../../src/ai/llm-tools';

// 17:30 UTC on 20 Nov 2026: 1:30 am on 21 Nov in Perth (UTC+8), 4:30 am in Sydney (AEDT, UTC+11).
const INSTANT = '2026-11-20T17:30:00.000Z';

describe("Ops AI times are in the asker's timezone, named", () => {
  it('when() writes the local date and time with the zone', () => {
    expect(when(INSTANT, 'Australia/Perth')).toBe('21 Nov 2026, 1:30 am (Australia/Perth)');
    expect(when(INSTANT, 'Australia/Sydney')).toBe('21 Nov 2026, 4:30 am (Australia/Sydney)');
    expect(when(INSTANT, 'UTC')).toBe('20 Nov 2026, 5:30 pm (UTC)');
    expect(when(null, 'Australia/Perth')).toBe('never');
  });

  it('tool results quoted for the model carry local times; other strings stay as they are', () => {
    const quoted = JSON.parse(
      quoteToolResult(
        'get_server',
        { name: '2026-11-20', lastHealthCheck: INSTANT, healthChecks: [{ checkedAt: INSTANT, error: null }] },
        'Australia/Perth',
      ),
    );
    expect(quoted).toEqual({
      tool: 'get_server',
      untrusted_data: {
        name: '2026-11-20',
        lastHealthCheck: '21 Nov 2026, 1:30 am (Australia/Perth)',
        healthChecks: [{ checkedAt: '21 Nov 2026, 1:30 am (Australia/Perth)', error: null }],
      },
    });
  });
});

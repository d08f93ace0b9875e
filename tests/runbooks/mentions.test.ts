import { describe, expect, it } from 'vitest';
import { indexText, mentions, tokensOf } from '../../src/runbooks/mentions';

/** Does `text` name `name` (a server name, hostname or IP address) as a whole token? */
const names = (text: string, name: string | null) => mentions(indexText(text), name);

describe('tokens', () => {
  it('are runs of letters, digits and . _ : - without the punctuation at their ends, lower case', () => {
    expect(tokensOf('Restart **WEB1**, then (db2). See web1.corp.example.com: port 22.')).toEqual([
      'restart',
      'web1',
      'then',
      'db2',
      'see',
      'web1.corp.example.com',
      'port',
      '22',
    ]);
  });
});

describe('a server name is mentioned only as a whole token', () => {
  it.each([
    ['ssh web1', true],
    ['WEB1 is down', true],
    ['**web1**', true],
    ['(web1)', true],
    ['`web1`', true],
    ['Restart web1.', true],
    ['web1:22', true],
    ['ssh admin@web1', true],
    ['web1.corp.example.com', true],
    ['https://web1.corp.example.com/status', true],
    ['web10', false],
    ['web1x', false],
    ['xweb1', false],
    ['web1-backup', false],
    ['web', false],
    ['', false],
  ])('%j mentions web1: %s', (text, expected) => {
    expect(names(text, 'web1')).toBe(expected);
  });

  it('a hostname as a whole token, with a port too', () => {
    expect(names('connect to web1.corp.example.com:8443', 'web1.corp.example.com')).toBe(true);
    expect(names('connect to web1.corp.example.com.', 'WEB1.corp.example.com')).toBe(true);
    expect(names('connect to web10.corp.example.com', 'web1.corp.example.com')).toBe(false);
    expect(names('connect to xweb1.corp.example.com', 'web1.corp.example.com')).toBe(false);
  });

  it('an IPv4 address whole: 127.0.0.1 is not in 127.0.0.10 or 1127.0.0.1', () => {
    expect(names('ping 127.0.0.1', '127.0.0.1')).toBe(true);
    expect(names('ping 127.0.0.1:22, then', '127.0.0.1')).toBe(true);
    expect(names('ssh root@127.0.0.1.', '127.0.0.1')).toBe(true);
    expect(names('ping 127.0.0.10', '127.0.0.1')).toBe(false);
    expect(names('ping 1127.0.0.1', '127.0.0.1')).toBe(false);
    expect(names('ping 127.0.0.1x', '127.0.0.1')).toBe(false);
  });

  it('a name of several words as the same run of words', () => {
    expect(names('Then the Mail Server restarts', 'Mail Server')).toBe(true);
    expect(names('mail\n  server', 'Mail Server')).toBe(true);
    expect(names('the mail relay server', 'Mail Server')).toBe(false);
    expect(names('mail', 'Mail Server')).toBe(false);
    expect(names('mailserver', 'Mail Server')).toBe(false);
  });

  it('no name, no mention', () => {
    expect(names('web1', null)).toBe(false);
    expect(names('web1', '')).toBe(false);
    expect(names('web1', '**')).toBe(false);
  });
});

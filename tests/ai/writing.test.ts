import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLANK_CONTENT_MESSAGE, categories } from '../../src/ai/shared';
import { getItem } from '../../src/knowledge/service';
import { createTestApp, jsonRequest, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let ctx: TestContext;
let user: TestUser;

beforeAll(async () => {
  ctx = await createTestApp();
  user = await createSignedInUser(ctx.db);
});
afterAll(() => ctx?.close());

const post = (path: string, body: unknown, cookie = user.cookie) =>
  ctx.app.request(path, jsonRequest('POST', body, cookie));

const MESSY = `restart dns service on dc01

users reported that nslookup fails for internal names after patching. the dns zone for corp looked fine.
fix:
first log on to the domain controller with rdp
then open powershell as admin
Restart-Service DNS
Get-Service DNS
next check resolution
nslookup intranet.corp.example 127.0.0.1
finally tell the service desk that dns is back`;

describe('POST /api/ai/auto-create-kb-preview (built-in text processing)', () => {
  it('turns messy notes into a titled, categorised article with steps, code blocks and tags', async () => {
    const res = await post('/api/ai/auto-create-kb-preview', { content: MESSY });
    expect(res.status).toBe(200);
    const p = (await res.json()) as {
      title: string;
      category: string;
      tags: string[];
      excerpt: string;
      content: string;
    };
    expect(p.title).toBe('Restart DNS Service on Dc01');
    expect(p.category).toBe('DNS');
    expect(categories).toContain(p.category);
    expect(p.tags).toContain('dns');
    expect(p.tags).toContain('nslookup');
    expect(p.excerpt).toBe(
      'Users reported that nslookup fails for internal names after patching. The dns zone for corp looked fine.'.replace(
        'The dns',
        'the dns',
      ),
    );
    expect(p.content).toContain('## Fix');
    expect(p.content).toContain('1. Log on to the domain controller with rdp');
    expect(p.content).toContain('2. Open powershell as admin');
    expect(p.content).toContain('```powershell\nRestart-Service DNS\nGet-Service DNS\n```');
    expect(p.content).toContain('3. Check resolution');
    expect(p.content).toContain('```bash\nnslookup intranet.corp.example 127.0.0.1\n```');
    expect(p.content).toContain('4. Tell the service desk that dns is back');
    expect(p.content).not.toContain('restart dns service on dc01'); // the title line is not repeated
  });

  it('answers 400 with the spec message for blank text, and 413 when too large', async () => {
    const blank = await post('/api/ai/auto-create-kb-preview', { content: '  \n\t ' });
    expect(blank.status).toBe(400);
    expect((await blank.json()).message).toBe(BLANK_CONTENT_MESSAGE);
    const missing = await post('/api/ai/auto-create-kb-preview', {});
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toBe(BLANK_CONTENT_MESSAGE);
    const big = await post('/api/ai/auto-create-kb-preview', { content: 'x'.repeat(1_000_001) });
    expect(big.status).toBe(413);
    const huge = await post('/api/ai/auto-create-kb-preview', {
      content: `![s](data:image/png;base64,${'A'.repeat(5_300_000)})`,
    });
    expect(huge.status).toBe(413);
    expect((await post('/api/ai/auto-create-kb-preview', { content: MESSY }, '')).status).toBe(401);
  });
});

describe('POST /api/ai/auto-create-kb', () => {
  it('creates a knowledge item from the preview (version 1, author = caller) and returns it', async () => {
    const preview = (await (await post('/api/ai/auto-create-kb-preview', { content: MESSY })).json()) as Record<
      string,
      unknown
    >;
    const res = await post('/api/ai/auto-create-kb', preview);
    expect(res.status).toBe(201);
    const item = (await res.json()) as {
      id: string;
      title: string;
      version: number;
      category: string;
      tags: string[];
      authorId: string;
    };
    expect(item).toMatchObject({ title: preview.title, version: 1, category: 'DNS', authorId: user.id });
    const stored = await getItem(ctx.db, 'knowledge', item.id);
    expect(stored?.content).toBe(preview.content);
    expect(stored?.tags).toEqual(preview.tags);
  });

  it('rejects a preview without title (400) or with blank content (400 spec message)', async () => {
    expect((await post('/api/ai/auto-create-kb', { title: '', content: 'x' })).status).toBe(400);
    const blank = await post('/api/ai/auto-create-kb', { title: 'T', content: ' ' });
    expect(blank.status).toBe(400);
    expect((await blank.json()).message).toBe(BLANK_CONTENT_MESSAGE);
  });
});

describe('POST /api/ai/enhance-content and /api/ai/enhance-field', () => {
  it('restructures content and suggests title, tags and a summary', async () => {
    const res = await post('/api/ai/enhance-content', {
      title: 'exchange mailbox database failover',
      content:
        'the mailbox database dismounted on EX01.\nsteps:\n1) check the DAG status\n2) mount the database\nMount-Database DB01',
      category: '',
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      improvedContent: string;
      suggestedTitle: string;
      extractedTags: string[];
      summary: string;
    };
    expect(body.suggestedTitle).toBe('Exchange Mailbox Database Failover');
    expect(body.improvedContent).toContain('## Steps');
    expect(body.improvedContent).toContain('1. Check the DAG status');
    expect(body.improvedContent).toContain('```powershell\nMount-Database DB01\n```');
    expect(body.extractedTags).toContain('mailbox database');
    expect(body.summary).toBe('The mailbox database dismounted on EX01.');
    const blank = await post('/api/ai/enhance-content', { title: 't', content: '' });
    expect(blank.status).toBe(400);
  });

  it('tidies a title, an excerpt and a purpose; validates fieldType', async () => {
    const field = async (fieldType: string, content: string) =>
      (await (await post('/api/ai/enhance-field', { fieldType, content, category: 'DNS' })).json()).enhancedContent;
    expect(await field('title', '  configure   dns forwarders on dc01 ')).toBe('Configure DNS Forwarders on Dc01');
    expect(await field('excerpt', 'how to add forwarders.  use the dns console')).toBe(
      'How to add forwarders. Use the dns console.',
    );
    expect(await field('purpose', 'restore name resolution')).toBe('Restore name resolution.');
    expect((await post('/api/ai/enhance-field', { fieldType: 'body', content: 'x' })).status).toBe(400);
    expect((await post('/api/ai/enhance-field', { fieldType: 'title', content: '   ' })).status).toBe(400);
  });
});

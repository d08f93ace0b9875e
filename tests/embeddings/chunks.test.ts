import { describe, expect, it } from 'vitest';
import { chunkItem, MAX_CHUNK_CHARS, MAX_CHUNKS } from '../../src/embeddings/chunks';
import { renderDocument } from '../../src/markdown/document';

describe('chunkItem', () => {
  const content = [
    'Before any heading: **why** this exists.',
    '## Restart the service',
    'Run this:',
    '```bash\nsystemctl restart nginx && echo "<ok>"\n```',
    '## Restart the service',
    '| Host | Port |\n| --- | --- |\n| web-01 | 443 |',
    '### Main',
    'A heading whose id the shell reserves.',
  ].join('\n\n');

  it('cuts at headings, each part with the read page’s anchor, the title and heading leading its text', () => {
    const chunks = chunkItem('Nginx runbook', content);
    const anchors = renderDocument(content).headings.map((h) => h.id);
    expect(chunks.map((c) => c.anchor)).toEqual([null, ...anchors]);
    expect(anchors).toEqual(['restart-the-service', 'restart-the-service-1', 'main-1']);
    expect(chunks.map((c) => c.heading)).toEqual([null, 'Restart the service', 'Restart the service', 'Main']);
    expect(chunks[0].body).toBe('Nginx runbook\nBefore any heading: why this exists.');
    expect(chunks[1].body).toBe(
      'Nginx runbook — Restart the service\nRun this:\nsystemctl restart nginx && echo "<ok>"',
    );
    expect(chunks[2].body).toContain('web-01');
    expect(chunks[2].body).not.toMatch(/<|&amp;/);
  });

  it('cuts a long section at paragraph ends, and keeps at most MAX_CHUNKS parts', () => {
    const paragraph = 'word '.repeat(300).trim();
    const long = chunkItem('Long', `## One\n\n${Array(10).fill(paragraph).join('\n\n')}`);
    expect(long.length).toBeGreaterThan(1);
    for (const c of long) {
      expect(c.anchor).toBe('one');
      expect(c.body.length).toBeLessThanOrEqual(MAX_CHUNK_CHARS + 'Long — One\n'.length);
    }
    const huge = chunkItem(
      'Huge',
      Array(MAX_CHUNKS + 50)
        .fill('## H\n\ntext')
        .join('\n\n'),
    );
    expect(huge).toHaveLength(MAX_CHUNKS);
  });

  it('an empty item is its title', () => {
    expect(chunkItem('Only a title', '')).toEqual([{ heading: null, anchor: null, body: 'Only a title' }]);
  });
});

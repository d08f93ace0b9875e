import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  formKindOf,
  ITEM_TYPES,
  itemHref,
  kbTypeOf,
  kbTypes,
  itemSlug,
  listItemHref,
  spaceOf,
  spaceOfPath,
  SPACES,
  spaceOfApi,
  specialTemplateTypes,
} from '../../src/knowledge/shared';

describe('knowledge/shared: the browser-safe model', () => {
  it('imports only its own modules and the stored value lists (no zod, no server code), so islands may import it', () => {
    const dir = path.resolve(import.meta.dirname, '../../src/knowledge/shared');
    for (const file of readdirSync(dir)) {
      const source = readFileSync(path.join(dir, file), 'utf8');
      const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      // Besides each other, only the stored value lists (pure constants) and living documentation's browser-safe types.
      expect(
        imports.filter((i) => !i.startsWith('./') && i !== '../../db/schema/values' && i !== '../../runbooks/shared'),
        file,
      ).toEqual([]);
    }
    const runbooks = readFileSync(path.resolve(import.meta.dirname, '../../src/runbooks/shared.ts'), 'utf8');
    expect([...runbooks.matchAll(/from '([^']+)'/g)].map((m) => m[1])).toEqual([
      '../knowledge/shared/item-types',
      '../servers/shared',
    ]);
  });

  it('one item-type table relates the URL value, the stored templateType and the form kind', () => {
    expect(kbTypes).toEqual(['knowledge-base', 'work-instruction', 'how-to-guide', 'build-document']);
    for (const kind of kbTypes) {
      const { templateType, form } = ITEM_TYPES[kind];
      if (templateType) expect(kbTypeOf(templateType)).toBe(kind);
      expect(formKindOf(templateType)).toBe(form);
    }
    expect(ITEM_TYPES['how-to-guide']).toMatchObject({ templateType: 'how_to_guide', form: 'howto' });
    expect(kbTypeOf('maintenance')).toBe('knowledge-base');
    expect(kbTypeOf(null)).toBe('knowledge-base');
    expect(specialTemplateTypes).toEqual(['work_instruction', 'how_to_guide', 'build_document']);
  });

  it('one SPACES table: paths, API bases and where an item opens', () => {
    expect(SPACES.knowledge).toMatchObject({ path: '/knowledge-base', api: '/api/knowledge-base', hasKinds: true });
    expect(SPACES.documents).toMatchObject({ path: '/documents', api: '/api/documents', hasKinds: false });
    expect(spaceOfApi('/api/knowledge-base')).toBe('knowledge');
    expect(spaceOfApi('/api/documents')).toBe('documents');
    expect(itemHref('knowledge', 'k1')).toBe('/knowledge-base/k1');
    expect(itemHref('knowledge', 'k1', 'Restart Nginx: step 2')).toBe('/knowledge-base/k1/restart-nginx-step-2');
    expect(itemHref('documents', 'd1', 'Backup policy')).toBe('/documents/d1/backup-policy');
    expect(listItemHref('knowledge', { id: 'k1', title: 'VPN' })).toBe('/knowledge-base/k1/vpn');
    expect(listItemHref('documents', { id: 'd1', title: 'VPN' })).toBe('/documents/d1/edit');
    expect(spaceOfPath('/documents')).toBe('documents');
    expect(spaceOf('documents')).toBe('documents');
    expect(spaceOf('knowledge')).toBe('knowledge');
  });

  it('slugs: readable ASCII words, never a sub-page name, at most 60 characters cut at a word', () => {
    expect(itemSlug("Patch Günther's VPN: step 2")).toBe('patch-gunther-s-vpn-step-2');
    expect(itemSlug('  --Ünïcödé--  ')).toBe('unicode');
    expect(itemSlug('日本語')).toBe('');
    expect(itemSlug('Edit')).toBe('');
    expect(itemSlug('delete')).toBe('');
    expect(itemSlug('Activity')).toBe('');
    expect(itemSlug('Comments')).toBe('');
    expect(itemSlug('Versions')).toBe('');
    expect(itemSlug('Edit the runbook')).toBe('edit-the-runbook');
    const long = itemSlug('Rebuild the primary PostgreSQL replica after a failover in the secondary datacentre');
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long).toBe('rebuild-the-primary-postgresql-replica-after-a-failover-in');
    expect(itemSlug('a'.repeat(80))).toBe('a'.repeat(60));
  });
});

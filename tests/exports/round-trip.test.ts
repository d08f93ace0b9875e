import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listItems } from '../../src/knowledge/service';
import { SPACES, type Space } from '../../src/knowledge/shared';
import { createTestApp, jsonRequest, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';
import { GIF, PNG, uploadRequest } from '../imports/zips';

/**
 * Export round trip (issue 25 acceptance): a space exported from one Ops Hub (GET /api/export) and imported into an
 * empty one (POST /api/import) gives the same items (title, content, category, tags, type, excerpt) and the same
 * images, byte for byte (the links in the content pointing at the new copies).
 */

let source: TestContext;
let target: TestContext;
let sourceAdmin: TestUser;
let targetAdmin: TestUser;

/** Uploads an image in the source the way the editor does (signed URL, PUT, ACL); its /objects/{id} path. */
async function upload(bytes: Buffer, type: string): Promise<string> {
  const signed = await source.app.request('/api/objects/upload', jsonRequest('POST', undefined, sourceAdmin.cookie));
  const { uploadURL } = await signed.json();
  const put = await source.app.request(uploadURL, {
    method: 'PUT',
    headers: { Origin: TEST_ORIGIN, Cookie: sourceAdmin.cookie, 'Content-Type': type },
    body: new Uint8Array(bytes),
  });
  expect(put.status).toBe(200);
  const acl = await source.app.request(
    '/api/objects/acl',
    jsonRequest('PUT', { imageURL: uploadURL, visibility: 'private' }, sourceAdmin.cookie),
  );
  expect(acl.status).toBe(200);
  return (await acl.json()).objectPath;
}

interface Input {
  title: string;
  content: string;
  category?: string;
  tags?: string[];
  templateType?: string | null;
  excerpt?: string;
}

async function create(space: Space, input: Input) {
  const res = await source.app.request(SPACES[space].api, jsonRequest('POST', input, sourceAdmin.cookie));
  expect(res.status, await res.clone().text()).toBe(201);
}

/** The content with each /objects/{id} link as the SHA-256 of the image it serves: equal across the two apps. */
async function byImageBytes(app: TestContext, who: TestUser, content: string): Promise<string> {
  const ids = [...new Set(content.match(/\/objects\/[0-9a-f-]{36}/g) ?? [])];
  let out = content;
  for (const path of ids) {
    const res = await app.app.request(path, jsonRequest('GET', undefined, who.cookie));
    expect(res.status, `${path} is served`).toBe(200);
    const sha = createHash('sha256')
      .update(Buffer.from(await res.arrayBuffer()))
      .digest('hex');
    out = out.replaceAll(path, `/objects/sha256:${sha}`);
  }
  return out;
}

/** Every item of a space as the round trip compares it, by title. */
async function itemsOf(app: TestContext, who: TestUser, space: Space) {
  const items = await listItems(app.db, space, { viewer: { id: who.id, role: 'admin' } });
  const out = await Promise.all(
    items.map(async (i) => ({
      title: i.title,
      content: await byImageBytes(app, who, i.content),
      category: i.category,
      tags: i.tags,
      templateType: i.templateType,
      excerpt: i.excerpt,
    })),
  );
  return out.sort((a, b) => a.title.localeCompare(b.title));
}

async function exportZip(space: Space): Promise<Uint8Array> {
  const res = await source.app.request(`/api/export?space=${space}`, jsonRequest('GET', undefined, sourceAdmin.cookie));
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

/** Imports the zip into the target for real and waits for its job to end; the job's report. */
async function importZip(space: Space, zip: Uint8Array) {
  const res = await target.app.request(
    `/api/import?space=${space}&dryRun=false`,
    uploadRequest([{ name: `${space}.zip`, body: zip }], targetAdmin.cookie),
  );
  expect(res.status, await res.clone().text()).toBe(202);
  const { jobId } = (await res.json()) as { jobId: string };
  for (let i = 0; i < 400; i++) {
    const report = await target.app.request(`/api/import/${jobId}`, jsonRequest('GET', undefined, targetAdmin.cookie));
    const body = await report.json();
    if (body.status === 'done' || body.status === 'failed') return body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the import did not finish');
}

beforeAll(async () => {
  source = await createTestApp();
  target = await createTestApp();
  sourceAdmin = await createSignedInUser(source.db, { role: 'admin' });
  targetAdmin = await createSignedInUser(target.db, { role: 'admin' });

  const diagram = await upload(PNG, 'image/png');
  const logo = await upload(GIF, 'image/gif');
  await create('knowledge', {
    title: 'Restart the VPN',
    content: `# Steps\n\n1. Drain the tunnel.\n2. Restart it:\n\n\`\`\`sh\nsudo systemctl restart strongswan\n\`\`\`\n\n![diagram](${diagram})\n\nThe same diagram again: ![again](${diagram})`,
    category: 'Network',
    tags: ['vpn', 'night shift'],
    excerpt: 'When the tunnel hangs: drain it, then restart.',
  });
  await create('knowledge', {
    title: 'Replace a core switch',
    content: `| Step | Who |\n|---|---|\n| Order | Ops |\n\n<img src="${logo}" alt="logo">\n\n![diagram](${diagram} "The diagram")`,
    category: 'Network',
    templateType: 'how_to_guide',
    tags: ['switch'],
  });
  await create('knowledge', {
    title: 'Set up a web server: nginx, "yes" or no?',
    content: 'Install it.\n\n    indented code\n\nDone.\n',
    category: 'Ops/Linux',
    templateType: 'server_setup',
    tags: ['nginx', 'yes', '2026-11-27'],
  });
  await create('knowledge', {
    title: 'Renew certificates',
    content: 'Every year.',
    category: 'sop',
    templateType: 'work_instruction',
  });
  await create('knowledge', {
    title: 'Build the backup host',
    content: 'Rack it.',
    category: 'build',
    templateType: 'build_document',
  });
  await create('knowledge', { title: 'Loose note', content: `No category, an image: ![logo](${logo})` });
  await create('documents', {
    title: 'Backup policy',
    content: `Three copies.\n\n![diagram](${diagram})`,
    category: 'Policy',
    templateType: 'troubleshooting',
    tags: ['backup'],
  });
  await create('documents', { title: 'Plain document', content: 'Text.' });
});
afterAll(async () => {
  await source?.close();
  await target?.close();
});

describe('export round trip', () => {
  for (const space of ['knowledge', 'documents'] as const) {
    it(`${space}: exported, imported into an empty database, gives the same items and images`, async () => {
      const expected = await itemsOf(source, sourceAdmin, space);
      expect(expected.length).toBeGreaterThan(1);
      expect(expected.some((i) => i.content.includes('/objects/sha256:'))).toBe(true);
      expect(await itemsOf(target, targetAdmin, space)).toEqual([]);

      const report = await importZip(space, await exportZip(space));
      expect(report).toMatchObject({ status: 'done', created: expected.length, skipped: 0, errors: 0 });

      // Each image link of the target serves the same bytes as the source's did (byImageBytes).
      expect(await itemsOf(target, targetAdmin, space)).toEqual(expected);
    });
  }
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { teamMembers } from '../../src/db/schema';
import { createTestApp, TEST_ORIGIN, type TestContext } from '../helpers/app';
import { createSignedInUser, type TestUser } from '../helpers/users';

let t: TestContext;
let user: TestUser;
const get = (path: string, headers: Record<string, string> = {}) =>
  t.app.request(path, { headers: { Cookie: user.cookie, ...headers } });
const post = (path: string, form: Record<string, string>, htmx = false) =>
  t.app.request(path, {
    method: 'POST',
    headers: {
      Cookie: user.cookie,
      Origin: TEST_ORIGIN,
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(htmx ? { 'HX-Request': 'true' } : {}),
    },
    body: new URLSearchParams(form).toString(),
  });

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t.db);
});
afterAll(() => t.close());

describe('/team page', () => {
  it('sends signed-out visitors to sign in', async () => {
    expect((await t.app.request('/team')).status).toBe(302);
  });

  it('shows the empty state with the invite hint', async () => {
    const html = await (await get('/team')).text();
    expect(html).toContain('No team members found');
    expect(html).toContain('Start by inviting your first team member');
    for (const text of [
      'Total Members',
      'Active Now',
      'Departments',
      'Administrators',
      'Add Team Member',
      'Invite Member',
    ])
      expect(html).toContain(text);
  });

  it('adds a member by plain form post (303) and shows the row with initials, dot, badge and "Never"', async () => {
    const res = await post('/team/members', {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      role: 'Senior Systems Administrator',
      department: 'IT Operations',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/team');
    const html = await (await get('/team')).text();
    expect(html).toContain('>AL</span>');
    expect(html).toContain('status-dot status-dot--green');
    expect(html).toContain('badge badge--red">Senior Systems Administrator');
    expect(html).toContain('Never');
    expect(html).toContain('Are you sure you want to delete Ada Lovelace? This action cannot be undone.');
    // Role and department choices from the spec are offered; free text is allowed (datalist).
    expect(html).toContain('<option value="Midrange Services Team">');
    expect(html).toContain('<option value="VIP">');
  });

  it('counts the header cards and shows "Last active" in the user\'s timezone', async () => {
    await t.db.insert(teamMembers).values([
      {
        name: 'Bob Builder',
        email: 'bob@example.com',
        role: 'DevOps Engineer',
        department: 'Server Services',
        status: 'inactive',
        lastActive: new Date('2026-03-01T23:30:00Z'),
      },
      { name: 'Cat Analyst', email: 'cat@example.com', role: 'Security Analyst', department: 'IT Operations' },
    ]);
    const html = await (await get('/team')).text();
    expect(html).toMatch(/Total Members<\/span><span class="stat-card__value">3</);
    expect(html).toMatch(/Active Now<\/span><span class="stat-card__value">2</);
    expect(html).toMatch(/Departments<\/span><span class="stat-card__value">2</);
    expect(html).toMatch(/Administrators<\/span><span class="stat-card__value">1</);
    expect(html).toContain('badge badge--blue">DevOps Engineer');
    expect(html).toContain('badge badge--green">Security Analyst');
    expect(html).toContain('status-dot status-dot--grey');
    // 23:30 UTC on 1 March is already 2 March in Sydney (the default timezone).
    expect(html).toContain('Last active 2 Mar 2026');
  });

  it('searches name, e-mail, role and department case-insensitively; htmx gets the list only', async () => {
    for (const [q, name] of [
      ['ADA', 'Ada Lovelace'],
      ['bob@', 'Bob Builder'],
      ['analyst', 'Cat Analyst'],
      ['server serv', 'Bob Builder'],
    ]) {
      const html = await (
        await get(`/team?q=${encodeURIComponent(q)}`, { 'HX-Request': 'true', 'HX-Target': 'team-list' })
      ).text();
      expect(html.startsWith('<div id="team-list"'), q).toBe(true);
      expect(html, q).toContain(name);
      expect(html.match(/class="team-row"/g), q).toHaveLength(1);
    }
    const none = await (await get('/team?q=zzz')).text();
    expect(none).toContain('Try adjusting your search criteria');
  });

  it('re-renders the add form with 422 and the message when invalid or taken', async () => {
    const res = await post('/team/members', { name: 'Dup', email: 'ada@example.com', role: 'VIP' });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('A team member with this email already exists.');
    expect(html).toMatch(/<dialog id="add-member"[^>]*data-open-on-load/);
    const bad = await post('/team/members', { name: '', email: 'bad', role: '' });
    expect(bad.status).toBe(422);
    const text = await bad.text();
    expect(text).toContain('Name is required');
    expect(text).toContain('Valid email is required');
    expect(text).toContain('Role is required');
  });

  it('htmx: a failed add answers the form with a "Missing Information" toast; a good one the region and a toast', async () => {
    const bad = await post('/team/members', { name: '', email: '', role: '' }, true);
    expect(bad.status).toBe(200);
    expect(JSON.parse(bad.headers.get('HX-Trigger')!).showToast).toEqual({
      title: 'Missing Information',
      text: 'Please fill in all required fields.',
      variant: 'error',
    });
    expect((await bad.text()).startsWith('<form id="add-member-form"')).toBe(true);
    const good = await post('/team/members', { name: 'Dan', email: 'dan@example.com', role: 'Manager' }, true);
    expect(JSON.parse(good.headers.get('HX-Trigger')!).showToast.title).toBe('Team Member Added');
    expect(good.headers.get('HX-Retarget')).toBe('#team-page');
    expect(await good.text()).toContain('Dan');
  });

  it('edits (with status) and deletes through the page forms', async () => {
    const [dan] = await t.db.select().from(teamMembers).where(eq(teamMembers.email, 'dan@example.com'));
    const edit = await post(
      `/team/members/${dan.id}`,
      { name: 'Dan Brown', email: 'dan@example.com', role: 'Manager', department: '', status: 'inactive' },
      true,
    );
    expect(JSON.parse(edit.headers.get('HX-Trigger')!).showToast.title).toBe('Team Member Updated');
    const [edited] = await t.db.select().from(teamMembers).where(eq(teamMembers.id, dan.id));
    expect(edited).toMatchObject({ name: 'Dan Brown', status: 'inactive', department: null });
    const del = await post(`/team/members/${dan.id}/delete`, {}, true);
    expect(JSON.parse(del.headers.get('HX-Trigger')!).showToast.title).toBe('Team Member Deleted');
    expect(await t.db.select().from(teamMembers).where(eq(teamMembers.id, dan.id))).toEqual([]);
  });

  it('htmx: editing or deleting a member that is gone answers 404 with the message for the error toast', async () => {
    const gone = '00000000-0000-4000-8000-000000000000';
    for (const path of [`/team/members/${gone}`, `/team/members/${gone}/delete`, '/team/members/not-a-uuid/delete']) {
      const res = await post(path, { name: 'X', email: 'x@example.com', role: 'VIP' }, true);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toMatch(
        /<main class="error-page">.*<p class="muted">Team member not found\.<\/p>/s,
      );
    }
  });

  it('names the spec error texts on the forms that can fail (data-error-toast)', async () => {
    const html = await (await get('/team')).text();
    expect(html).toMatch(/<form id="add-member-form"[^>]*data-error-toast="Failed to add team member\."/);
    expect(html).toMatch(
      /<form id="invite-member-form"[^>]*data-error-toast="Failed to send invitation\. Please try again\."/,
    );
    expect(html).toMatch(/<form id="edit-[^"]+-form"[^>]*data-error-toast="Failed to update team member\."/);
    expect(html).toMatch(/<form id="delete-[^"]+-form"[^>]*data-error-toast="Failed to delete team member\."/);
  });

  it('htmx: after a change the list keeps the search of the page (HX-Current-URL)', async () => {
    const res = await t.app.request('/team/members', {
      method: 'POST',
      headers: {
        Cookie: user.cookie,
        Origin: TEST_ORIGIN,
        'Content-Type': 'application/x-www-form-urlencoded',
        'HX-Request': 'true',
        'HX-Current-URL': `${TEST_ORIGIN}/team?q=analyst`,
      },
      body: new URLSearchParams({ name: 'Fay Analyst', email: 'fay@example.com', role: 'Data Analyst' }).toString(),
    });
    const html = await res.text();
    expect(html).toMatch(/<input id="team-search"[^>]*value="analyst"/);
    expect(html).toContain('Fay Analyst');
    expect(html).toContain('Cat Analyst');
    expect(html).not.toContain('Ada Lovelace</span>');
    expect(html.match(/class="team-row"/g)).toHaveLength(2);
    // The header cards still count everyone.
    expect(html).toMatch(/Total Members<\/span><span class="stat-card__value">4</);
  });

  it('invites through the page form: toast "Invitation Sent" with the spec text', async () => {
    const res = await post(
      '/team/invite',
      { email: 'eve@example.com', firstName: 'Eve', lastName: 'Ops', role: 'VIP', department: '' },
      true,
    );
    expect(JSON.parse(res.headers.get('HX-Trigger')!).showToast).toMatchObject({
      title: 'Invitation Sent',
      text: 'Invitation sent to eve@example.com successfully.',
    });
  });

  it('shows the invitation limit in the form and a toast, not an error page', async () => {
    const form = { email: 'often@outside.example', firstName: 'Of', lastName: 'Ten', role: 'VIP', department: '' };
    for (let i = 0; i < 3; i++) expect((await post('/team/invite', form, true)).status).toBe(200);
    const res = await post('/team/invite', form, true);
    expect(res.status).toBe(200);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect(JSON.parse(res.headers.get('HX-Trigger')!).showToast).toMatchObject({
      title: 'Error',
      text: 'Too many invitations. Please try again later.',
    });
    const html = await res.text();
    expect(html).toContain('id="invite-member-form"');
    expect(html).toContain('Too many invitations. Please try again later.');
    const plain = await post('/team/invite', form);
    expect(plain.status).toBe(422);
    expect(await plain.text()).toContain('Too many invitations. Please try again later.');
  });

  it('refuses a cross-site form post', async () => {
    const res = await t.app.request('/team/members', {
      method: 'POST',
      headers: {
        Cookie: user.cookie,
        Origin: 'https://evil.example',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'name=X&email=x%40example.com&role=VIP',
    });
    expect(res.status).toBe(403);
  });
});

describe('/team required fields (spec §5 "Missing Information")', () => {
  it("its forms leave required fields to the server (novalidate), not the browser's bubble", async () => {
    const html = await (await get('/team')).text();
    for (const id of ['add-member-form', 'invite-member-form']) {
      expect(html, id).toMatch(new RegExp(`<form id="${id}" noValidate=""`, 'i'));
    }
    const edits = html.match(/<form id="edit-[^"]+-form"[^>]*>/g) ?? [];
    expect(edits.length).toBeGreaterThan(0);
    for (const form of edits) expect(form).toMatch(/noValidate=""/i);
  });

  it('a plain post with required fields missing shows the toast in the page with the field errors (422)', async () => {
    for (const [path, body] of [
      ['/team/members', { name: '', email: '', role: '' }],
      ['/team/invite', { email: '', firstName: 'Only', lastName: '', role: '' }],
    ] as const) {
      const res = await post(path, body);
      expect(res.status, path).toBe(422);
      const html = await res.text();
      const region = html.match(/<div class="toast-region" id="toasts"[^>]*>(.*?)<\/div><\/body>/)?.[1];
      expect(region, path).toBe(
        '<div class="toast toast--error" role="alert"><div class="toast__title">Missing Information</div>' +
          '<div class="toast__text">Please fill in all required fields.</div></div>',
      );
      expect(html, path).toContain('Role is required');
    }
  });

  it('a plain post refused for another reason toasts "Error" with that reason', async () => {
    const res = await post('/team/members', { name: 'Twin', email: 'ada@example.com', role: 'VIP' });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('<div class="toast__title">Error</div>');
    expect(html).toContain('<div class="toast__text">A team member with this email already exists.</div>');
  });
});

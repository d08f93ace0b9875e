import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { fragment, isHtmx, isHtmxFor } from '../../src/http/htmx';

function app() {
  const a = new Hono();
  a.get('/', (c) => c.json({ htmx: isHtmx(c), list: isHtmxFor(c, 'list') }));
  a.get('/fragment', (c) => fragment(c, <p className="x">{`a < b & "c"`}</p>));
  a.get('/fragment-422', (c) => fragment(c, <p>bad</p>, 422));
  a.get('/fragment-status', (c) => {
    c.status(404);
    return fragment(c, <p>gone</p>);
  });
  return a;
}

const flags = async (headers: Record<string, string>) => (await app().request('/', { headers })).json();

describe('isHtmx / isHtmxFor', () => {
  it('a plain request is not htmx', async () => {
    expect(await flags({})).toEqual({ htmx: false, list: false });
  });
  it('HX-Request: true is htmx; HX-Target names the element', async () => {
    expect(await flags({ 'HX-Request': 'true' })).toEqual({ htmx: true, list: false });
    expect(await flags({ 'hx-request': 'true', 'hx-target': 'list' })).toEqual({ htmx: true, list: true });
  });
  it('a history restore wants the whole page', async () => {
    expect(await flags({ 'HX-Request': 'true', 'HX-History-Restore-Request': 'true', 'HX-Target': 'list' })).toEqual({
      htmx: false,
      list: false,
    });
  });
});

describe('fragment', () => {
  it('answers the rendered node alone, escaped, as HTML', async () => {
    const res = await app().request('/fragment');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toBe('<p class="x">a &lt; b &amp; &quot;c&quot;</p>');
  });
  it('takes a status, or keeps the one set before', async () => {
    expect((await app().request('/fragment-422')).status).toBe(422);
    const res = await app().request('/fragment-status');
    expect([res.status, await res.text()]).toEqual([404, '<p>gone</p>']);
  });
});

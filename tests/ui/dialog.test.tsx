import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ConfirmDialog, Dialog, DialogContent } from '../../src/ui/Dialog';

// React 19 writes a form's action and method after its other attributes.

describe('Dialog', () => {
  it('is a native dialog labelled by its title, with a close button, body and footer', () => {
    const html = renderToString(
      <Dialog id="d" title="Title" footer={<button type="button">Ok</button>}>
        <p>Body</p>
      </Dialog>,
    );
    expect(html).toBe(
      '<dialog id="d" class="dialog" aria-labelledby="d-title"><header class="dialog__header">' +
        '<h2 class="dialog__title" id="d-title">Title</h2>' +
        `<button type="button" class="icon-button" data-close-dialog="true" aria-label="Close">${html.match(/<svg.*?<\/svg>/)![0]}</button>` +
        '</header><div class="dialog__body"><p>Body</p></div>' +
        '<footer class="dialog__footer"><button type="button">Ok</button></footer></dialog>',
    );
  });

  it('opens on load, goes wide, and wraps its content in a form when asked', () => {
    const html = renderToString(
      <Dialog
        id="f"
        title="Edit"
        wide
        openOnLoad
        bodyClassName="stack"
        form={{ method: 'post', action: '/x', 'hx-post': '/x', 'hx-target': 'this' }}
      >
        <input name="a" />
      </Dialog>,
    );
    expect(html).toMatch(/^<dialog id="f" class="dialog dialog--wide" aria-labelledby="f-title" data-open-on-load="">/);
    expect(html).toContain(
      '<form hx-post="/x" hx-target="this" action="/x" method="post"><header class="dialog__header">',
    );
    expect(html).toContain('<div class="dialog__body stack"><input name="a"/></div></form></dialog>');
    expect(html).not.toContain('dialog__footer');
  });

  it('DialogContent renders the form alone (the fragment htmx swaps)', () => {
    const html = renderToString(
      <DialogContent id="g" title="G" form={{ id: 'g-form', action: '/g' }}>
        x
      </DialogContent>,
    );
    expect(html).toMatch(/^<form id="g-form" action="\/g"><header/);
    expect(html).not.toContain('<dialog');
  });
});

describe('ConfirmDialog', () => {
  it('asks the question and POSTs to the action, with htmx and without', () => {
    const html = renderToString(
      <ConfirmDialog
        id="delete-1"
        title="Delete Thing"
        question="Are you sure you want to delete Thing? This action cannot be undone."
        action="/things/1/delete"
      />,
    );
    expect(html).toContain('<form hx-post="/things/1/delete" action="/things/1/delete" method="post">');
    expect(html).toContain('<h2 class="dialog__title" id="delete-1-title">Delete Thing</h2>');
    expect(html).toContain(
      '<div class="dialog__body"><p>Are you sure you want to delete Thing? This action cannot be undone.</p></div>',
    );
    expect(html).toContain(
      '<footer class="dialog__footer"><button type="button" class="btn btn--secondary" data-close-dialog="true">Cancel</button>' +
        '<button type="submit" class="btn btn--danger">Delete</button></footer>',
    );
  });

  it('takes another label, a non-destructive style and more form attributes', () => {
    const html = renderToString(
      <ConfirmDialog
        id="a"
        title="Approve"
        question="Sure?"
        action="/a"
        submit="Approve"
        danger={false}
        form={{ 'hx-target': '#list', 'hx-swap': 'outerHTML' }}
      />,
    );
    expect(html).toContain('<form hx-post="/a" hx-target="#list" hx-swap="outerHTML" action="/a" method="post">');
    expect(html).toContain('<button type="submit" class="btn btn--primary">Approve</button>');
  });
});

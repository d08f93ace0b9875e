import { Fragment, type ReactNode } from 'react';
import { Lexer, type Token, type Tokens } from 'marked';
import { isInAppLink, safeHref } from './safe-url';

/**
 * Markdown → React elements for assistant bubbles (no HTML strings anywhere: raw HTML shows as text).
 * Links are filtered by safeHref; code blocks get a copy button.
 */

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decode = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (m) => ENTITIES[m]);

interface Options {
  onCopyCode: (code: string) => void;
}

function inline(tokens: Token[] | undefined, o: Options): ReactNode {
  // biome-ignore lint/suspicious/noArrayIndexKey: re-parsed each render: position is identity
  return (tokens ?? []).map((t, i) => <Fragment key={i}>{inlineToken(t, o)}</Fragment>);
}

function inlineToken(t: Token, o: Options): ReactNode {
  switch (t.type) {
    case 'strong':
      return <strong>{inline((t as Tokens.Strong).tokens, o)}</strong>;
    case 'em':
      return <em>{inline((t as Tokens.Em).tokens, o)}</em>;
    case 'del':
      return <del>{inline((t as Tokens.Del).tokens, o)}</del>;
    case 'codespan':
      return <code>{decode((t as Tokens.Codespan).text)}</code>;
    case 'br':
      return <br />;
    case 'link': {
      const l = t as Tokens.Link;
      const href = safeHref(l.href);
      const inApp = href !== undefined && isInAppLink(href);
      return (
        <a
          href={href}
          title={l.title ?? undefined}
          {...(href && !inApp ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
        >
          {inline(l.tokens, o)}
        </a>
      );
    }
    case 'image': {
      const im = t as Tokens.Image;
      const href = safeHref(im.href);
      return href ? (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {decode(im.text) || 'image'}
        </a>
      ) : (
        decode(im.text)
      );
    }
    case 'text':
      return 'tokens' in t && t.tokens ? inline(t.tokens, o) : decode((t as Tokens.Text).text);
    case 'escape':
      return (t as Tokens.Escape).text;
    default:
      return 'text' in t ? decode(String(t.text)) : null;
  }
}

function CodeBlock({ code, lang, onCopy }: { code: string; lang?: string; onCopy: (code: string) => void }) {
  return (
    <div className="code-block">
      <pre>
        <code className={lang ? `language-${lang.replace(/[^\w-]/g, '')}` : undefined}>{code}</code>
      </pre>
      <button
        type="button"
        className="btn btn--secondary btn--sm code-block__copy"
        onClick={() => onCopy(code)}
        aria-label="Copy code"
      >
        Copy
      </button>
    </div>
  );
}

function block(t: Token, key: number, o: Options): ReactNode {
  switch (t.type) {
    case 'space':
    case 'def':
      return null;
    case 'heading': {
      const h = t as Tokens.Heading;
      const Tag = `h${Math.min(Math.max(h.depth + 1, 3), 6)}` as 'h3';
      return <Tag key={key}>{inline(h.tokens, o)}</Tag>;
    }
    case 'paragraph':
      return <p key={key}>{inline((t as Tokens.Paragraph).tokens, o)}</p>;
    case 'code':
      return (
        <CodeBlock key={key} code={(t as Tokens.Code).text} lang={(t as Tokens.Code).lang} onCopy={o.onCopyCode} />
      );
    case 'blockquote':
      return <blockquote key={key}>{blocks((t as Tokens.Blockquote).tokens, o)}</blockquote>;
    case 'hr':
      return <hr key={key} />;
    case 'list': {
      const l = t as Tokens.List;
      // biome-ignore lint/suspicious/noArrayIndexKey: re-parsed each render: position is identity
      const items = l.items.map((item, i) => <li key={i}>{blocks(item.tokens, o)}</li>);
      return l.ordered ? (
        <ol key={key} start={typeof l.start === 'number' && l.start !== 1 ? l.start : undefined}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'table': {
      const tb = t as Tokens.Table;
      return (
        <table key={key}>
          <thead>
            <tr>
              {tb.header.map((c, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: re-parsed each render: position is identity
                <th key={i}>{inline(c.tokens, o)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {tb.rows.map((r, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: re-parsed each render: position is identity
              <tr key={i}>
                {r.map((c, j) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: re-parsed each render: position is identity
                  <td key={j}>{inline(c.tokens, o)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      );
    }
    case 'text':
      return <Fragment key={key}>{inlineToken(t, o)}</Fragment>;
    case 'html':
      return <p key={key}>{(t as Tokens.HTML).text}</p>;
    default:
      return 'text' in t ? <p key={key}>{String(t.text)}</p> : null;
  }
}

function blocks(tokens: Token[], o: Options): ReactNode {
  return tokens.map((t, i) => block(t, i, o));
}

/** Renders assistant markdown safely as React. */
export function Markdown({ text, onCopyCode }: { text: string; onCopyCode: (code: string) => void }) {
  const tokens = Lexer.lex(text, { gfm: true });
  return <div className="prose">{blocks(tokens, { onCopyCode })}</div>;
}

/**
 * The chat bodies webhooks post besides plain JSON: Slack incoming webhooks ({ text } in mrkdwn) and Microsoft Teams
 * (a MessageCard). Used by alert webhooks (src/alerts/messages.ts) and outgoing webhooks (src/webhooks/messages.ts).
 */

/** Slack mrkdwn: &, < and > are its only control characters (links, mentions); everything else is text. */
export const slackEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A Slack link: `<url|label>` with the label escaped. */
export const slackLink = (url: string, label: string) => `<${url}|${slackEscape(label)}>`;

/** Teams MessageCard text is Markdown (and some HTML): every Markdown punctuation character is backslash-escaped. */
export const teamsEscape = (s: string) => s.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, '\\$&');

export interface MessageCardInput {
  /** Plain text (notifications, previews). */
  summary: string;
  /** Shown as the title (escaped here). */
  title: string;
  /** Hex colour without '#'. */
  color: string;
  /** name/value pairs, escaped here. */
  facts: { name: string; value: string }[];
  /** Buttons that open a page. */
  links: { name: string; url: string }[];
}

/** A Teams MessageCard: title, one section of facts, and OpenUri buttons. */
export function messageCard(card: MessageCardInput) {
  return {
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    summary: card.summary,
    themeColor: card.color,
    title: teamsEscape(card.title),
    sections: [{ facts: card.facts.map((f) => ({ name: teamsEscape(f.name), value: teamsEscape(f.value) })) }],
    potentialAction: card.links.map((l) => ({
      '@type': 'OpenUri',
      name: l.name,
      targets: [{ os: 'default', uri: l.url }],
    })),
  };
}

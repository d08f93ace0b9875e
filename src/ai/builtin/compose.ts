/**
 * Messy prose (a ticket, a chat log, an e-mail, shell history) → a structured knowledge item: its kind, and
 * sections (symptoms, cause, prerequisites, steps with their commands in fenced blocks, verification). Only the
 * input's own sentences and commands are used: nothing is invented, no placeholder is written.
 */
import { asCommand } from './structure';

export type Kind = 'how-to' | 'work instruction' | 'build document' | 'article';

type Role = 'symptom' | 'cause' | 'prerequisite' | 'step' | 'verification' | 'note';
interface Piece {
  role: Role;
  text: string;
  commands: { text: string; shell: string }[];
}

/** Lines that carry nothing for the article (ticket headers, greetings, sign-offs). */
const NOISE =
  /^(hi|hello|hey|thanks|thank you|cheers|regards|kind regards|best|sent from|closing|closed|ticket closed|resolved\.?$|reported by|assigned to|priority|status:|from:|to:|cc:|date:|sent:|--)/i;
const SPEAKER = /^\s*(?:\[?\d{1,2}:\d{2}(?::\d{2})?\]?\s*)?(?:<?[\w.-]{2,20}>?\s*:\s+)?/;
const LEAD =
  /^(?:and\s+)?(?:then\s+|next\s+|so\s+|i\s+|we\s+)?(?:ran|run|running|typed|type|executed|execute|did|used|use|tried)\s*:?\s+/i;
const PAST: Record<string, string> = Object.fromEntries(
  (
    'checked:Check restarted:Restart logged:Log rebooted:Reboot cleared:Clear installed:Install removed:Remove ' +
    'added:Add opened:Open changed:Change updated:Update verified:Verify confirmed:Confirm deleted:Delete ' +
    'created:Create renamed:Rename moved:Move copied:Copy enabled:Enable disabled:Disable flushed:Flush ' +
    'started:Start tested:Test connected:Connect signed:Sign uninstalled:Uninstall reinstalled:Reinstall ' +
    'applied:Apply killed:Kill mounted:Mount extended:Extend expanded:Expand renewed:Renew imported:Import ' +
    'exported:Export assigned:Assign granted:Grant edited:Edit replaced:Replace patched:Patch upgraded:Upgrade ' +
    'ran:Run unlocked:Unlock stopped:Stop disconnected:Disconnect re-enabled:Re-enable rescanned:Rescan ' +
    'increased:Increase approved:Approve deployed:Deploy configured:Configure set:Set reset:Reset went:Go'
  )
    .split(' ')
    .map((p) => p.split(':')),
);
const IMPERATIVE =
  /^(check|restart|log|reboot|clear|install|remove|add|open|change|update|verify|confirm|delete|create|rename|move|copy|enable|disable|flush|start|test|connect|sign|uninstall|reinstall|apply|kill|mount|extend|expand|renew|import|export|assign|grant|edit|replace|patch|upgrade|run|unlock|stop|go|set|reset|make|ensure|click|select|choose|browse|navigate|right-click|type|enter|log on|wait|download|upload|configure|deploy|approve|rescan|increase|take|backup|back up|power|plug|unplug|reseat|press|find|search|compare|document|schedule|notify|email|call)\b/i;
const SYMPTOM =
  /\b(error|errors|fail(s|ed|ing|ure)?|stopped|stops|can't|cannot|can not|unable|not working|doesn't|does not|won't|hangs?|frozen|freez\w*|slow|crash\w*|offline|down|timed? ?out|timeout|no longer|broken|reported|users? (see|get|report)|symptoms?|issue|problem|full|expired?|unreachable)\b/i;
const CAUSE = /\b(root cause|caused by|cause( was|:)|because|due to|turned out|the reason)\b/i;
const PREREQ =
  /\b(prerequisites?|you need|you will need|requires?|make sure you have|before you (start|begin)|need(s)? (admin|access|rights|permission))\b/i;
const VERIFY =
  /\b(verify|verified|confirm(ed)?|test (page|print|receipt|login|email)|printed a test|works now|working again|now works|back online|back up|resolved|successful(ly)?|came back|is fine|all good|check that)\b/i;

/** Commands in a line: the whole line, after a lead-in ("ran …", "then …"), or in `backticks`. */
export function commandsIn(line: string): { text: string; shell: string }[] {
  const inline = [...line.matchAll(/`([^`]+)`/g)].map((m) => asCommand(m[1])).filter((c) => !!c);
  if (inline.length) return inline;
  const bare = line.trim().replace(/^\d+[.)]\s+|^[-*•]\s+/, '');
  const candidates = [
    bare,
    bare.replace(LEAD, ''),
    bare.replace(/^(?:and\s+)?(?:then|next|after that|finally|also)\s*,?\s+/i, '').replace(LEAD, ''),
    ...[...bare.matchAll(/\b(?:ran|run|running|typed|executed|with|using|via)\s+|:\s+/gi)].map((m) =>
      bare.slice((m.index ?? 0) + m[0].length),
    ),
  ];
  for (const c of candidates) {
    const found = asCommand(cutTail(c));
    if (found) return [found];
  }
  return [];
}

/** A command ends where the sentence goes on in words ("gpupdate /force on a test laptop"). */
const cutTail = (s: string) =>
  s
    .split(
      /\s+(?:and|after|before|then|which|but|so|showed|shows|returned|fails|failed|worked|works|on a|on the|to check|to confirm)\s+/i,
    )[0]
    .replace(/[.,;]+$/, '');

/** "Checked the printer" → "Check the printer". */
const imperative = (s: string) =>
  s.replace(/^(\w+(?:-\w+)?)/, (w) => PAST[w.toLowerCase()] ?? w[0].toUpperCase() + w.slice(1));

const sentence = (s: string) => {
  const t = s.trim().replace(/\s+/g, ' ');
  return t ? t[0].toUpperCase() + t.slice(1) + (/[.!?:)"'`]$/.test(t) ? '' : '.') : t;
};

/** Splits the input into its sentences and commands, each with the part of an article it belongs to. */
function pieces(text: string): Piece[] {
  const out: Piece[] = [];
  for (const raw of text.replace(/\r/g, '').split('\n')) {
    const line = raw.replace(SPEAKER, '').trim();
    if (!line || NOISE.test(line)) continue;
    const commands = commandsIn(line);
    const bareLine = line.replace(/^[$#>]\s*|^PS [^>]*>\s*/, '');
    if (
      commands.length === 1 &&
      !/`/.test(line) &&
      bareLine.endsWith(commands[0].text) &&
      bareLine.length - commands[0].text.length < 25
    ) {
      out.push({ role: 'step', text: '', commands });
      continue;
    }
    for (const s of line.split(/(?<=[.!?])\s+(?=[A-Z])/)) {
      const own = commandsIn(s);
      const prose = own.length ? s.replace(/`[^`]+`/g, (m) => m.slice(1, -1)) : s;
      const lower = prose.toLowerCase();
      const role: Role = CAUSE.test(lower)
        ? 'cause'
        : PREREQ.test(lower)
          ? 'prerequisite'
          : VERIFY.test(lower) && !own.length
            ? 'verification'
            : own.length || IMPERATIVE.test(prose) || PAST[lower.split(/\s/)[0]]
              ? 'step'
              : SYMPTOM.test(lower)
                ? 'symptom'
                : 'note';
      out.push({ role, text: prose, commands: own });
    }
  }
  return out;
}

/** How-to, work instruction, build document or (troubleshooting) article. */
export function detectKind(text: string): Kind {
  const p = pieces(text);
  const steps = p.filter((x) => x.role === 'step').length;
  if (
    /\b(build|provision(ing)?|new (server|vm|host)|server build|install(ing|ation)? of|set(ting)? up a new|standing up)\b/i.test(
      text,
    ) &&
    steps >= 2
  )
    return 'build document';
  if (
    /\b(work instruction|checklist|daily|weekly|monthly|every (day|week|month|morning|night)|routine|bau|shift)\b/i.test(
      text,
    )
  )
    return 'work instruction';
  if (p.some((x) => x.role === 'symptom' || x.role === 'cause') && steps) return 'article';
  if (steps >= 2 || /\bhow (to|do)\b/i.test(text)) return 'how-to';
  return 'article';
}

function fence(commands: { text: string; shell: string }[], indent = ''): string {
  const byShell = commands.reduce<{ shell: string; lines: string[] }[]>((groups, c) => {
    const last = groups[groups.length - 1];
    if (last?.shell === c.shell) last.lines.push(c.text);
    else groups.push({ shell: c.shell, lines: [c.text] });
    return groups;
  }, []);
  return byShell
    .map((g) => [`\`\`\`${g.shell}`, ...g.lines, '```'].map((l) => `${indent}${l}`).join('\n'))
    .join('\n\n');
}

/** Numbered steps; a step's commands in a fenced block under it. */
function stepList(steps: Piece[]): string {
  const items: string[] = [];
  for (const s of steps) {
    if (!s.text && items.length) {
      items[items.length - 1] += `\n\n${fence(s.commands, '   ')}`;
      continue;
    }
    const label = s.text ? sentence(imperative(s.text)) : s.commands.length > 1 ? 'Run:' : 'Run the command:';
    items.push(`${items.length + 1}. ${label}${s.commands.length ? `\n\n${fence(s.commands, '   ')}` : ''}`);
  }
  return items.join('\n');
}

/** The structured markdown for messy prose. */
export function compose(text: string): { kind: Kind; content: string } {
  const kind = detectKind(text);
  const p = pieces(text);
  const of = (role: Role) => p.filter((x) => x.role === role);
  const para = (xs: Piece[]) => xs.map((x) => sentence(x.text)).join(' ');
  const sections: string[] = [];
  const notes = of('note');
  if (kind === 'article') {
    if (notes.length) sections.push(`## Overview\n\n${para(notes)}`);
    if (of('symptom').length)
      sections.push(
        `## Symptoms\n\n${of('symptom')
          .map((x) => `- ${sentence(x.text)}`)
          .join('\n')}`,
      );
    if (of('cause').length) sections.push(`## Cause\n\n${para(of('cause'))}`);
    if (of('prerequisite').length)
      sections.push(
        `## Prerequisites\n\n${of('prerequisite')
          .map((x) => `- ${sentence(x.text)}`)
          .join('\n')}`,
      );
    if (of('step').length) sections.push(`## Resolution\n\n${stepList(of('step'))}`);
  } else {
    const context = [...notes, ...of('symptom'), ...of('cause')];
    if (context.length) sections.push(`## Overview\n\n${para(context)}`);
    if (of('prerequisite').length)
      sections.push(
        `## Prerequisites\n\n${of('prerequisite')
          .map((x) => `- ${sentence(x.text)}`)
          .join('\n')}`,
      );
    if (of('step').length) sections.push(`## Steps\n\n${stepList(of('step'))}`);
  }
  if (of('verification').length)
    sections.push(
      `## Verification\n\n${of('verification')
        .map((x) => `- ${sentence(x.text)}`)
        .join('\n')}`,
    );
  return { kind, content: sections.join('\n\n') };
}

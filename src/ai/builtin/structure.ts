/**
 * Messy text → structured markdown (built-in writing tools): headings, numbered steps, commands in code
 * blocks, paragraphs. Existing markdown (headings, fences, lists, images) passes through.
 */

type Block =
  | { kind: 'heading'; text: string }
  | { kind: 'step'; text: string }
  | { kind: 'bullet'; text: string }
  | { kind: 'command'; text: string; shell: 'powershell' | 'bash' }
  | { kind: 'fence'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'blank' };

const CMD_WORDS =
  'sudo|apt|apt-get|yum|dnf|systemctl|service|journalctl|kubectl|docker|git|ssh|scp|rsync|curl|wget|ping|tracert|traceroute|nslookup|dig|ipconfig|ifconfig|ip|netstat|ss|nmap|netsh|powershell|pwsh|cmd|chmod|chown|mkdir|rm|cp|mv|cat|grep|tail|head|ls|cd|df|du|free|top|mount|umount|tar|unzip|npm|pip|winget|choco|iisreset|robocopy|xcopy|reg|wmic|bcdedit|sfc|dism|gpupdate|gpresult|shutdown|net|sc|certutil|hostname|whoami|nltest|repadmin|dcdiag|vmkfstools|esxcli|esxcfg-\\w+|vim-cmd|openssl|crontab|useradd|usermod|passwd|firewall-cmd|ufw|iptables|mysql|psql|sqlcmd';
const POWERSHELL =
  /^(?:PS [^>]*>\s*)?(?:(?:Get|Set|New|Remove|Add|Unlock|Lock|Reset|Repair|Send|Join|Copy|Compare|Approve|Publish|Expand|Initialize|Edit|Show|Enter|Exit|Checkpoint|Optimize|Use|Install|Import|Enable|Disable|Test|Invoke|Start|Stop|Restart|Update|Connect|Disconnect|Export|Clear|Move|Rename|Resume|Suspend|Uninstall|Register|Unregister|Mount|Dismount|Search|Find|Grant|Revoke|Backup|Restore|Sync|Write|Read|Wait|Out|Select|Where|ForEach|Measure|Format|Convert|ConvertTo|ConvertFrom)-[A-Z]\w+|\$[A-Za-z_]\w*\s*=)/;
const SHELL = new RegExp(`^(?:\\$\\s+|#\\s+(?=(?:${CMD_WORDS})\\b)|>\\s*)?(?:${CMD_WORDS})(?:\\s|$)`);
const STEP =
  /^(?:step\s*\d+\s*[:.)-]\s*|\d{1,2}\s*[.)]\s+|\(\d{1,2}\)\s*|(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|then|next|after that|afterwards|finally|lastly)\b[,:]?\s+)/i;
const BULLET = /^[-*•–]\s+/;
const SECTION_WORDS =
  /^(overview|summary|background|purpose|scope|prerequisites?|requirements?|before you (start|begin)|steps?|procedure|instructions|resolution|solution|fix|workaround|verification|verify|testing|validation|rollback|troubleshooting|notes?|tips?|references?|symptoms?|cause|root cause|issue|problem|impact|contacts?|escalation)\b/i;

const WINDOWS_TOOLS =
  /^(ipconfig|tracert|netsh|robocopy|xcopy|reg|wmic|bcdedit|sfc|dism|gpupdate|gpresult|certutil|nltest|repadmin|dcdiag|iisreset|sqlcmd|winget|choco)\b/i;

/** A command line (shell or PowerShell), without its prompt; undefined when it is prose. */
export function asCommand(line: string): { text: string; shell: 'powershell' | 'bash' } | undefined {
  const t = line.trim().replace(/^`+|`+$/g, '');
  if (t.length > 300 || (/[.!?]$/.test(t) && !/\s-\w/.test(t))) return undefined;
  if (POWERSHELL.test(t)) return { text: t.replace(/^PS [^>]*>\s*/, ''), shell: 'powershell' };
  if (
    SHELL.test(t) &&
    !/^(?:service|free|top|head|ip|net|cat|cd|ls)\s+(?:is|was|are|the|a|an|and|to|of|for)\b/i.test(t)
  ) {
    const text = t.replace(/^(?:\$|#|>)\s+/, '');
    // Windows' own tools run in PowerShell; the rest are Unix shell commands.
    return { text, shell: WINDOWS_TOOLS.test(text) ? 'powershell' : 'bash' };
  }
  return undefined;
}

function isHeading(line: string): boolean {
  const t = line.trim();
  if (t.length > 60 || t.length < 3) return false;
  if (/:$/.test(t) && !/[.!?]/.test(t.slice(0, -1)) && t.split(/\s+/).length <= 7) return true;
  if (/^[A-Z0-9][A-Z0-9 &/-]{2,}$/.test(t) && /[A-Z]{3}/.test(t)) return true;
  return SECTION_WORDS.test(t) && t.split(/\s+/).length <= 4 && !/[.!?]$/.test(t);
}

const clean = (s: string) => s.replace(/[ \t]+/g, ' ').trim();
const sentenceCase = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/** Splits messy text into typed blocks. */
export function toBlocks(input: string): Block[] {
  const blocks: Block[] = [];
  const lines = input.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    const line = clean(raw);
    if (/^(`{3,}|~{3,})/.test(line)) {
      const fence = line.match(/^(`{3,}|~{3,})/)![1];
      const body = [raw];
      while (++i < lines.length && !lines[i].trim().startsWith(fence)) body.push(lines[i]);
      body.push(fence);
      blocks.push({ kind: 'fence', text: body.join('\n') });
      continue;
    }
    if (!line) blocks.push({ kind: 'blank' });
    else if (/^#{1,6}\s/.test(line)) blocks.push({ kind: 'heading', text: line.replace(/^#+\s*/, '') });
    else if (/^(!\[|<!--|<img\b|\|)/.test(line)) blocks.push({ kind: 'fence', text: raw.trim() });
    else if (asCommand(line)) blocks.push({ kind: 'command', ...asCommand(line)! });
    else if (STEP.test(line)) blocks.push({ kind: 'step', text: sentenceCase(line.replace(STEP, '')) });
    else if (BULLET.test(line)) blocks.push({ kind: 'bullet', text: line.replace(BULLET, '') });
    else if (isHeading(line)) blocks.push({ kind: 'heading', text: line.replace(/:$/, '') });
    else blocks.push(...splitSentenceSteps(line));
  }
  return blocks;
}

/** "Do X, then do Y. Next, Z." in one line → steps when it reads as a sequence. */
function splitSentenceSteps(line: string): Block[] {
  const parts = line
    .split(/(?<=[.;])\s+(?=(?:then|next|after that|finally|lastly)\b)|,\s*then\s+/i)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length < 2) return [{ kind: 'text', text: line }];
  return parts.map((p) => ({ kind: 'step', text: sentenceCase(p.replace(STEP, '').replace(/[;,]$/, '.')) }));
}

const titleCaseHeading = (s: string) => sentenceCase(s.replace(/\s*:$/, ''));

/** Writes the blocks back as markdown: one numbered list per section, grouped code blocks. */
export function toMarkdown(blocks: Block[], opts: { stepsHeading?: boolean } = {}): string {
  const out: string[] = [];
  let step = 0;
  let sawHeading = false;
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) out.push(sentenceCase(paragraph.join(' ')));
    paragraph = [];
  };
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    if (b.kind !== 'text') flush();
    if (b.kind === 'blank') continue;
    if (b.kind === 'text') paragraph.push(b.text);
    else if (b.kind === 'heading') {
      out.push(`## ${titleCaseHeading(b.text)}`);
      sawHeading = true;
      step = 0;
    } else if (b.kind === 'step') {
      if (step === 0 && !sawHeading && opts.stepsHeading !== false) {
        out.push('## Steps');
        sawHeading = true;
      }
      step += 1;
      const prev = out[out.length - 1] ?? '';
      const item = `${step}. ${b.text}`;
      if (/^\d+\. /.test(prev)) out[out.length - 1] = `${prev}\n${item}`;
      else out.push(item);
    } else if (b.kind === 'bullet') {
      const prev = out[out.length - 1] ?? '';
      if (/^- /.test(prev)) out[out.length - 1] = `${prev}\n- ${b.text}`;
      else out.push(`- ${b.text}`);
    } else if (b.kind === 'command') {
      const group = [b.text];
      while (blocks[i + 1]?.kind === 'command' && (blocks[i + 1] as { shell: string }).shell === b.shell)
        group.push((blocks[++i] as { text: string }).text);
      out.push(`\`\`\`${b.shell}\n${group.join('\n')}\n\`\`\``);
    } else out.push(b.text);
  }
  flush();
  return out.join('\n\n').trim();
}

/** The whole restructuring in one call. */
export function structure(text: string): string {
  return toMarkdown(toBlocks(text));
}

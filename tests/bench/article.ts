/**
 * Real-size knowledge items for the read page budgets: about 1,000 words each, written as runbooks are (an
 * introduction, a checklist, numbered `##` steps, a table, fenced code blocks, a rollback). Deterministic: the
 * same item n every run.
 */

const VOCABULARY = (
  'the server cluster node service backup window change request owner team vendor console certificate ' +
  'firewall rule address record zone policy account group mailbox datastore snapshot patch update reboot ' +
  'health check alert threshold disk memory load queue replica primary secondary schedule ticket log ' +
  'before after during each every first then once until while when and with from into on for of to'
).split(' ');

interface Topic {
  title: string;
  category: string;
  tags: string[];
  /** Host name prefix used in the table and the code blocks. */
  host: string;
  service: string;
}

const TOPICS: Topic[] = [
  {
    title: 'Patch and reboot the Citrix StoreFront servers',
    category: 'Citrix',
    tags: ['patching', 'citrix'],
    host: 'ctx-sf',
    service: 'CitrixStoreFront',
  },
  {
    title: 'Renew the Exchange SE certificates',
    category: 'Exchange SE',
    tags: ['certificate', 'exchange'],
    host: 'exch',
    service: 'MSExchangeFrontEndTransport',
  },
  {
    title: 'Fail over the SQL cluster to the secondary site',
    category: 'Windows Server',
    tags: ['failover', 'cluster'],
    host: 'sql',
    service: 'MSSQLSERVER',
  },
  {
    title: 'Move a vMware datastore to new storage',
    category: 'vMware',
    tags: ['storage', 'vmware'],
    host: 'esx',
    service: 'vpxa',
  },
  {
    title: 'Rebuild a POS gateway after a disk failure',
    category: 'POS',
    tags: ['pos', 'restore'],
    host: 'pos-gw',
    service: 'posgateway',
  },
];

function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** A sentence of 9 to 18 words from the vocabulary, capitalised, ending in a full stop. */
function sentence(random: () => number): string {
  const n = 9 + Math.floor(random() * 10);
  const words = Array.from({ length: n }, () => VOCABULARY[Math.floor(random() * VOCABULARY.length)]);
  const text = words.join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

const paragraph = (random: () => number, sentences: number) =>
  Array.from({ length: sentences }, () => sentence(random)).join(' ');

function table(topic: Topic): string {
  const rows = Array.from({ length: 6 }, (_, i) => {
    const window = `Sun ${String(1 + i).padStart(2, '0')}:00–${String(2 + i).padStart(2, '0')}:00`;
    return `| ${topic.host}-${String(i + 1).padStart(2, '0')} | ${i % 2 ? 'secondary' : 'primary'} | ${window} | Server Services |`;
  });
  return ['| Server | Role | Window | Owner |', '|---|---|---|---|', ...rows].join('\n');
}

function stopServices(topic: Topic): string {
  return [
    '```powershell',
    `$servers = 1..6 | ForEach-Object { '${topic.host}-{0:d2}' -f $_ }`,
    'foreach ($server in $servers) {',
    `  Invoke-Command -ComputerName $server -ScriptBlock { Stop-Service -Name '${topic.service}' -Force }`,
    `  Get-Service -ComputerName $server -Name '${topic.service}' | Select-Object MachineName, Status`,
    '}',
    '```',
  ].join('\n');
}

function patch(topic: Topic): string {
  return [
    '```bash',
    `for host in ${topic.host}-01 ${topic.host}-02 ${topic.host}-03; do`,
    '  ssh "$host" "sudo apt-get update && sudo apt-get -y upgrade"',
    '  ssh "$host" "sudo systemctl reboot" || true',
    '  until ssh -o ConnectTimeout=5 "$host" true; do sleep 10; done',
    'done',
    '```',
  ].join('\n');
}

function verify(topic: Topic): string {
  return [
    '```text',
    `${topic.host}-01  ${topic.service}  Running  version 2404.1`,
    `${topic.host}-02  ${topic.service}  Running  version 2404.1`,
    `${topic.host}-03  ${topic.service}  Running  version 2404.1`,
    '```',
  ].join('\n');
}

export interface Article {
  title: string;
  content: string;
  category: string;
  tags: string[];
}

/** Runbook n (0 to 4): its title, markdown of about 1,000 words, category and tags. */
export function article(n: number): Article {
  const topic = TOPICS[n % TOPICS.length];
  const random = rng(101 + n);
  const checklist = Array.from({ length: 5 }, () => `- ${sentence(random)}`).join('\n');
  const steps = Array.from({ length: 4 }, () => `1. ${sentence(random)}`).join('\n');
  const content = [
    paragraph(random, 5),
    '## Before you start',
    paragraph(random, 3),
    checklist,
    '## Step 1: Tell the owners and open the change',
    paragraph(random, 5),
    table(topic),
    paragraph(random, 2),
    '## Step 2: Drain and stop the service',
    paragraph(random, 5),
    stopServices(topic),
    paragraph(random, 3),
    '## Step 3: Patch and reboot each server',
    paragraph(random, 5),
    patch(topic),
    paragraph(random, 3),
    '## Step 4: Bring the service back',
    paragraph(random, 5),
    steps,
    '## Step 5: Verify',
    paragraph(random, 5),
    verify(topic),
    '## Rollback',
    paragraph(random, 5),
    '## Contacts',
    paragraph(random, 4),
  ].join('\n\n');
  return { title: topic.title, content, category: topic.category, tags: topic.tags };
}

/** How many runbooks article() has. */
export const ARTICLES = TOPICS.length;

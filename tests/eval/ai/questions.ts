/**
 * The answer-quality question set, written the way ops staff ask (typos, synonyms, follow-ups). Each turn lists
 * what a right answer must name (`expect`), what it must not (`absent`), or that it must decline (`decline`: name
 * no server or document, and say it can't answer). A conversation's later turns carry the earlier turns and the
 * engine's own answers as conversationHistory, as the chat sends them.
 */

export interface Turn {
  q: string;
  expect?: string[];
  absent?: string[];
  decline?: boolean;
}

export interface Case {
  topic: string;
  turns: Turn[];
}

const one = (topic: string, q: string, expect: string[], absent: string[] = []): Case => ({
  topic,
  turns: [{ q, expect, absent }],
});
const declined = (q: string): Case => ({ topic: 'out of scope', turns: [{ q, decline: true }] });

const OFFLINE = ['AUB-POS-02', 'AUB-POS-03', 'SYD-WEB-01', 'MEL-CTX-02', 'DEV-APP-02'];
const WARNING = ['AUB-FS-01', 'SYD-EXCH-01', 'BNE-POS-01', 'DB-08'];
const SYDNEY = ['SYD-POS-01', 'SYD-POS-02', 'SYD-WEB-01', 'SYD-WEB-02', 'SYD-ADFS-01', 'SYD-EXCH-01', 'DB-07'];
const MELBOURNE = ['MEL-POS-01', 'MEL-CTX-01', 'MEL-CTX-02', 'MEL-SCCM-01', 'MEL-DC-01', 'DB-08', 'DEV-APP-01'];
const BRISBANE = ['BNE-POS-01', 'BNE-FS-01', 'BNE-ESX-01', 'BNE-ESX-02'];
const PERTH = ['PER-POS-01', 'PER-BKP-01', 'PER-DNS-01'];
const ADFS_DOC = 'Renew the ADFS token-signing certificate';
const POS_DOC = 'Restart a POS terminal';

export const CASES: Case[] = [
  // One server by name
  one('server', 'who owns db-07?', ['DB-07', 'Database Team']),
  one('server', 'who owns DB-08', ['DB-08', 'Database Team']),
  one('server', "what's the IP of AUB-POS-02?", ['AUB-POS-02', '127.40.0.11']),
  one('server', 'status of syd-web-01', ['SYD-WEB-01', 'offline']),
  one('server', 'tell me about MEL-SCCM-01', ['MEL-SCCM-01', 'SCCM primary site']),
  one('server', 'is BNE-ESX-02 up?', ['BNE-ESX-02', 'maintenance']),
  one('server', 'what OS is PER-DNS-01 running', ['PER-DNS-01', 'Ubuntu 22.04']),
  one('server', 'who do I contact about SYD-ADFS-01', ['SYD-ADFS-01', 'Grace Liu']),
  one('server', 'what docs are linked to AUB-POS-03', ['AUB-POS-03', 'POS end-of-day reconciliation fails']),
  one('server', 'where is MEL-CTX-02', ['MEL-CTX-02', 'Melbourne']),
  one('server', 'db-07 owner', ['DB-07', 'Database Team']),
  one('server', 'who owns db-99?', [], SYDNEY),
  one('server', 'hostname of per-bkp-01', ['PER-BKP-01', 'per-bkp-01.corp.example']),
  // Location, with or without status and function
  one(
    'location',
    'which POS servers in Auburn are offline?',
    ['AUB-POS-02', 'AUB-POS-03'],
    ['AUB-POS-01', 'STG-POS-01', 'AUB-FS-01'],
  ),
  one('location', 'servers in Sydney', SYDNEY, ['MEL-POS-01']),
  one('location', 'show me the Perth servers', PERTH, ['AUB-POS-01']),
  one('location', "what's at the Brisbane site", BRISBANE, ['PER-POS-01']),
  one('location', 'list melbourne servers', MELBOURNE, ['SYD-POS-01']),
  one('location', 'any offline servers in Sydney?', ['SYD-WEB-01', 'DEV-APP-02'], ['SYD-POS-01', 'AUB-POS-02']),
  one('location', 'POS servers in Melbourne', ['MEL-POS-01'], ['MEL-CTX-01', 'SYD-POS-01']),
  one('location', 'file servers in Brisbane', ['BNE-FS-01'], ['BNE-ESX-01', 'AUB-FS-01']),
  one('location', 'which servers in Auburn have warnings', ['AUB-FS-01'], ['AUB-POS-01', 'SYD-EXCH-01']),
  one('location', 'Auburn POS servers', ['AUB-POS-01', 'AUB-POS-02', 'AUB-POS-03', 'STG-POS-01'], ['AUB-FS-01']),
  one('location', 'how many servers are in Brisbane?', BRISBANE),
  one('location', 'boxes at the Perth site', PERTH),
  one('location', 'whats offline in melbourne', ['MEL-CTX-02'], ['MEL-CTX-01', 'AUB-POS-02']),
  one('location', 'online POS servers in Sydney', ['SYD-POS-01'], ['SYD-POS-02', 'AUB-POS-01']),
  // Status and environment
  one('status', 'which servers are offline?', OFFLINE, ['AUB-POS-01']),
  one('status', "what's down right now", OFFLINE, ['PER-POS-01']),
  one('status', 'anything in maintenance?', ['SYD-POS-02', 'BNE-ESX-02'], ['AUB-POS-02']),
  one('status', 'servers with warnings', WARNING, ['PER-POS-01']),
  one('status', 'show me unhealthy servers', [...OFFLINE, ...WARNING], ['PER-POS-01']),
  one('status', 'which POS servers are offline', ['AUB-POS-02', 'AUB-POS-03'], ['SYD-POS-01', 'SYD-WEB-01']),
  one(
    'status',
    'are any production servers offline?',
    ['AUB-POS-02', 'AUB-POS-03', 'SYD-WEB-01', 'MEL-CTX-02'],
    ['DEV-APP-02'],
  ),
  one('status', 'list staging servers', ['SYD-WEB-02', 'DB-08', 'STG-POS-01'], ['AUB-POS-01']),
  one('status', 'dev servers', ['DEV-APP-01', 'DEV-APP-02'], ['AUB-POS-01']),
  one('status', 'prod servers in Perth', PERTH, ['AUB-POS-01']),
  one('status', 'which servers are in maintenance mode', ['SYD-POS-02', 'BNE-ESX-02'], ['AUB-POS-01']),
  // Function, owner, operating system
  one('function', 'list the domain controllers', ['AUB-DC-01', 'MEL-DC-01'], ['SYD-POS-01']),
  one('function', 'where are the citrix servers', ['MEL-CTX-01', 'MEL-CTX-02'], ['MEL-POS-01']),
  one('function', 'exchange servers', ['SYD-EXCH-01'], ['SYD-POS-01']),
  one('function', 'which servers run SQL', ['DB-07'], ['AUB-POS-01']),
  one('function', 'show the esxi hosts', ['BNE-ESX-01', 'BNE-ESX-02'], ['BNE-FS-01']),
  one('function', 'database servers', ['DB-07', 'DB-08'], ['SYD-WEB-01']),
  one('function', 'web servers', ['SYD-WEB-01', 'SYD-WEB-02'], ['DB-07']),
  one('function', 'backup server', ['PER-BKP-01'], ['PER-DNS-01']),
  one('function', 'dns servers', ['PER-DNS-01'], ['PER-BKP-01']),
  one(
    'owner',
    'which servers does Retail Systems own',
    ['AUB-POS-01', 'SYD-POS-01', 'PER-POS-01', 'BNE-POS-01'],
    ['DB-07'],
  ),
  one('owner', 'servers owned by the Identity team', ['AUB-DC-01', 'MEL-DC-01', 'SYD-ADFS-01'], ['DB-07']),
  one(
    'owner',
    'which servers does the Infrastructure team own?',
    ['AUB-FS-01', 'BNE-FS-01', 'BNE-ESX-01', 'PER-BKP-01'],
    ['SYD-POS-01'],
  ),
  one('function', 'ubuntu servers', ['SYD-WEB-01', 'SYD-WEB-02', 'PER-DNS-01', 'DB-08'], ['AUB-POS-01']),
  one('function', 'show me the hypervisors', ['BNE-ESX-01', 'BNE-ESX-02'], ['BNE-FS-01']),
  // Documentation
  one('docs', 'how do I renew the ADFS certificate?', [ADFS_DOC]),
  one('docs', 'how to restart a POS terminal', [POS_DOC]),
  one('docs', 'reboot a frozen till', [POS_DOC]),
  one('docs', "how do I reset someone's password", ['Reset a user password in Active Directory']),
  one('docs', 'pwd reset AD', ['Reset a user password in Active Directory']),
  one('docs', 'expand datastore vmware', ['Expand a VMware datastore']),
  one('docs', 'patching procedure', ['Monthly Windows patching with WSUS']),
  one('docs', 'how do we patch servers', ['Monthly Windows patching with WSUS']),
  one('docs', 'dns not resolving', ['Troubleshoot DNS resolution failures']),
  one('docs', 'restore a deleted file', ['Restore a file from backup']),
  one('docs', 'citrix no apps showing', ['Citrix StoreFront shows no apps']),
  one('docs', 'mailbox database full what do I do', ['Exchange mailbox database is full']),
  one('docs', 'how to deploy software with sccm', ['Deploy an application with SCCM']),
  one('docs', 'autopilot enrolment', ['Enrol a laptop in Intune with Autopilot']),
  one('docs', 'create shared mailbox', ['Set up a shared mailbox in Exchange Online']),
  one('docs', 'how do I restore a SQL database', ['SQL Server database backup and restore']),
  one('docs', 'replace failed raid disk', ['Replace a failed disk in a RAID array']),
  one('docs', "teams room won't join meetings", ['Teams meeting room troubleshooting']),
  one('docs', '502 bad gateway on the website', ['Web server returns 502 Bad Gateway']),
  one('docs', 'onboarding guide for a new service desk analyst', ['Onboarding a new service desk analyst']),
  one('docs', 'EV archiving not working', ['Enterprise Vault archiving stopped']),
  one('docs', 'renew ssl cert iis', ['Renew an SSL certificate on IIS']),
  one('docs', 'assign o365 license', ['Office 365 licence assignment']),
  one('docs', "azure vm won't start", ['Azure VM will not start']),
  one('docs', 'end of day report not balancing', ['POS end-of-day reconciliation fails']),
  one('docs', 'runbook for restoring files', ['Restore a file from backup']),
  one('docs', 'kb article on adfs', [ADFS_DOC]),
  one('docs', 'docs about certificates', [ADFS_DOC, 'Renew an SSL certificate on IIS']),
  one('docs', 'how do I fix a full exchange mailbox db', ['Exchange mailbox database is full']),
  // Typos
  one('typo', 'which severs are offine?', OFFLINE, ['AUB-POS-01']),
  one('typo', 'servers in Aubrun', ['AUB-POS-01', 'AUB-POS-02', 'AUB-FS-01'], ['SYD-POS-01']),
  one('typo', 'how do I renw the ADFS certficate', [ADFS_DOC]),
  one('typo', 'documention for citrix', ['Citrix StoreFront shows no apps']),
  one('typo', 'restart pos termnial', [POS_DOC]),
  one('typo', 'who ownes db-07', ['DB-07', 'Database Team']),
  one('typo', 'staus of SYD-WEB-01', ['SYD-WEB-01', 'offline']),
  one('typo', 'servers in melborne', MELBOURNE, ['SYD-POS-01']),
  one('typo', 'expnad vmware datastore', ['Expand a VMware datastore']),
  one('typo', 'mailbox databse full', ['Exchange mailbox database is full']),
  one('typo', 'wich servers are in maintenence', ['SYD-POS-02', 'BNE-ESX-02'], ['AUB-POS-01']),
  one('typo', 'Brisbane sevrers', BRISBANE, ['PER-POS-01']),
  // Contacts and issues
  one('contacts', 'who is on call for the network', ['Bob Singh']),
  one('contacts', 'support contacts', ['Priya Raman', 'Grace Liu']),
  one('contacts', 'who should I escalate a database problem to', ['Mei Chen']),
  one('issues', 'any outages right now?', OFFLINE),
  one('issues', "what's broken", OFFLINE),
  // Out of scope: declined plainly, naming nothing
  declined('what is the weather in Sydney'),
  declined('tell me a joke'),
  declined('who won the football last night'),
  declined("what's the capital of France"),
  declined('write me a poem about the ocean'),
  declined('how much is a flight to Perth'),
  declined('what time is it in Melbourne'),
  declined('recommend a good restaurant in Auburn'),
  declined("what's the exchange rate for the Australian dollar"),
  declined('translate hello into French'),
  // Follow-ups that refer to the previous answer
  {
    topic: 'follow-up',
    turns: [
      { q: 'servers in Sydney', expect: SYDNEY },
      { q: 'which of those are offline?', expect: ['SYD-WEB-01'], absent: ['SYD-POS-01', 'AUB-POS-02', 'MEL-CTX-02'] },
    ],
  },
  {
    topic: 'follow-up',
    turns: [
      { q: 'who owns db-07?', expect: ['DB-07', 'Database Team'] },
      { q: "what's its IP?", expect: ['DB-07', '127.40.0.33'] },
    ],
  },
  {
    topic: 'follow-up',
    turns: [
      { q: 'tell me about SYD-ADFS-01', expect: ['SYD-ADFS-01'] },
      { q: 'how do I renew the certificate on it?', expect: [ADFS_DOC] },
    ],
  },
  {
    topic: 'follow-up',
    turns: [
      { q: 'which POS servers are offline?', expect: ['AUB-POS-02', 'AUB-POS-03'] },
      { q: 'who owns those?', expect: ['AUB-POS-02', 'AUB-POS-03', 'Retail Systems'], absent: ['SYD-POS-01'] },
    ],
  },
  {
    topic: 'follow-up',
    turns: [
      { q: 'status of MEL-CTX-02', expect: ['MEL-CTX-02', 'offline'] },
      { q: 'any docs for that server?', expect: ['Citrix StoreFront shows no apps'] },
    ],
  },
  {
    topic: 'follow-up',
    turns: [
      { q: 'list the domain controllers', expect: ['AUB-DC-01', 'MEL-DC-01'] },
      { q: 'which of them are in Melbourne?', expect: ['MEL-DC-01'], absent: ['AUB-DC-01', 'MEL-POS-01'] },
    ],
  },
  {
    topic: 'follow-up',
    turns: [
      { q: 'show me the Brisbane servers', expect: BRISBANE },
      { q: 'which ones are in maintenance?', expect: ['BNE-ESX-02'], absent: ['SYD-POS-02', 'BNE-ESX-01'] },
    ],
  },
  {
    topic: 'follow-up',
    turns: [
      { q: "what's SYD-WEB-01's status?", expect: ['SYD-WEB-01', 'offline'] },
      { q: 'is there a runbook for it?', expect: ['Web server returns 502 Bad Gateway'] },
      { q: 'who do I contact about that server?', expect: ['SYD-WEB-01', 'Sam Okafor'] },
    ],
  },
  {
    topic: 'follow-up',
    turns: [
      { q: 'servers in Perth', expect: PERTH },
      { q: 'and in Brisbane?', expect: BRISBANE, absent: ['PER-POS-01'] },
    ],
  },
  {
    topic: 'follow-up',
    turns: [
      { q: 'who owns AUB-FS-01', expect: ['AUB-FS-01', 'Infrastructure'] },
      { q: "what's wrong with it?", expect: ['AUB-FS-01', 'warning'] },
    ],
  },
  {
    topic: 'follow-up',
    turns: [
      { q: 'which servers are in warning', expect: WARNING },
      { q: 'which of these are in production?', expect: ['AUB-FS-01', 'SYD-EXCH-01', 'BNE-POS-01'], absent: ['DB-08'] },
    ],
  },
  {
    topic: 'follow-up',
    turns: [
      { q: 'tell me about PER-BKP-01', expect: ['PER-BKP-01'] },
      { q: 'is it online?', expect: ['PER-BKP-01', 'online'] },
    ],
  },
  {
    topic: 'follow-up',
    turns: [
      { q: 'show staging servers', expect: ['SYD-WEB-02', 'DB-08', 'STG-POS-01'] },
      { q: 'which of those have warnings', expect: ['DB-08'], absent: ['AUB-FS-01', 'SYD-WEB-02'] },
    ],
  },
  {
    topic: 'follow-up',
    turns: [
      { q: 'citrix servers', expect: ['MEL-CTX-01', 'MEL-CTX-02'] },
      { q: 'are they online?', expect: ['MEL-CTX-01', 'MEL-CTX-02'], absent: ['MEL-POS-01'] },
    ],
  },
  {
    topic: 'follow-up',
    turns: [
      { q: 'what is on AUB-POS-03?', expect: ['AUB-POS-03', 'POS database'] },
      { q: 'where is that server?', expect: ['AUB-POS-03', 'Auburn'] },
    ],
  },
];

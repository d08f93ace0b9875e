/** The writing tools on messy inputs (tickets, chat logs, shell history, e-mails): structure checks per input. */
import { categories } from '../../../src/ai/schemas';
import type { Engine } from '../../../src/ai/engine';

export interface MessyInput {
  name: string;
  text: string;
  /** Every one must end up in a fenced code block. */
  commands: string[];
  /** The title must name one of these words. */
  titleHas: string[];
  steps?: boolean;
}

const C = (name: string, text: string, commands: string[], titleHas: string[], steps = true): MessyInput => ({
  name,
  text,
  commands,
  titleHas,
  steps,
});

export const INPUTS: MessyInput[] = [
  C(
    'ticket: spooler',
    `Ticket INC0012345 - users at Auburn store can't print receipts\nReported by: Jane 09:12\nReceipt printer on till 3 stopped printing after the overnight patching.\nLogged on to AUB-POS-01 and the print spooler service was stopped.\nran Get-Service Spooler\nthen Restart-Service Spooler -Force\nprinted a test receipt ok. Root cause: spooler crashed after the update.`,
    ['Get-Service Spooler', 'Restart-Service Spooler -Force'],
    ['print', 'receipt'],
  ),
  C(
    'ticket: disk full',
    `INC0020031: C drive full on AUB-FS-01\nUsers can't save files to the share. Checked the disk, 0 bytes free.\nCause was old IIS logs.\nRemove-Item C:\\inetpub\\logs\\LogFiles\\* -Recurse\nConfirmed 40 GB free afterwards.`,
    ['Remove-Item C:\\inetpub\\logs\\LogFiles\\* -Recurse'],
    ['drive', 'full', 'disk'],
  ),
  C(
    'ticket: dns',
    `Subject: DNS not resolving internal names\nSeveral users report intranet does not load. nslookup intranet.corp.example fails.\nFlushed the cache with ipconfig /flushdns and restarted the DNS client.\nRoot cause: forwarder pointed at a retired server.\nVerified with nslookup intranet.corp.example 127.0.0.53`,
    ['ipconfig /flushdns', 'nslookup intranet.corp.example 127.0.0.53'],
    ['dns', 'resolving'],
  ),
  C(
    'chat: nginx',
    `[10:02] tom: SYD-WEB-01 is throwing 502s\n[10:03] priya: checked nginx, upstream is down\n[10:04] priya: sudo systemctl restart app.service\n[10:05] priya: sudo systemctl reload nginx\n[10:06] tom: site is back online, thanks`,
    ['sudo systemctl restart app.service', 'sudo systemctl reload nginx'],
    ['502', 'throwing', 'web'],
  ),
  C(
    'shell history: apt',
    `$ sudo apt update\n$ sudo apt upgrade -y\n$ sudo reboot\n$ uptime`,
    ['sudo apt update', 'sudo apt upgrade -y'],
    ['procedure', 'notes', 'operations', 'linux', 'patch'],
  ),
  C(
    'email: adfs cert',
    `From: Grace\nTo: Ops\nSubject: RE: ADFS token-signing certificate expires Friday\n\nHi team,\nThe ADFS token-signing cert expires on Friday. You need admin rights on SYD-ADFS-01.\nRun Update-AdfsCertificate -CertificateType Token-Signing -Urgent\nThen update the relying party trusts with the new certificate.\nCheck that sign-in works from the portal.\nRegards, Grace`,
    ['Update-AdfsCertificate -CertificateType Token-Signing -Urgent'],
    ['adfs', 'certificate'],
  ),
  C(
    'ticket: account lockout',
    `Ticket 45123 - user locked out repeatedly\nUser keeps getting locked out after password change. Cause: old password saved on phone mail app.\nUnlocked the account with Unlock-ADAccount -Identity jsmith\nAsked user to remove the phone mail profile.\nConfirmed no more lockouts after an hour.`,
    ['Unlock-ADAccount -Identity jsmith'],
    ['locked', 'lockout'],
  ),
  C(
    'build: new ubuntu server',
    `Build for a new Ubuntu web server\nProvision the VM with 2 vCPU and 4 GB.\nsudo apt install -y nginx\nsudo ufw allow 'Nginx Full'\nsudo systemctl enable --now nginx\nCheck that the default page loads.`,
    ['sudo apt install -y nginx', "sudo ufw allow 'Nginx Full'", 'sudo systemctl enable --now nginx'],
    ['build', 'ubuntu', 'server'],
  ),
  C(
    'work instruction: daily checks',
    `Daily morning checks for the backup server\nLog on to PER-BKP-01.\nOpen the backup console and review last night's jobs.\nGet-WBJob -Previous 1\nRerun any failed job.\nRecord the result in the shift log.`,
    ['Get-WBJob -Previous 1'],
    ['daily', 'checks', 'backup'],
  ),
  C(
    'ticket: vmware datastore',
    `INC778812 datastore almost full on BNE-ESX-01\nvCenter alarm: datastore usage 95%.\nGrew the LUN on the SAN by 500 GB.\nesxcli storage core adapter rescan --all\nIncreased the datastore capacity in vCenter.\nVerified the alarm cleared.`,
    ['esxcli storage core adapter rescan --all'],
    ['datastore', 'full'],
  ),
  C(
    'chat: citrix',
    `luis: users say citrix shows no apps\nluis: checked the delivery controller, broker service stopped\nluis: Get-Service CitrixBrokerService\nluis: Start-Service CitrixBrokerService\nsam: apps are back, all good`,
    ['Get-Service CitrixBrokerService', 'Start-Service CitrixBrokerService'],
    ['citrix', 'apps'],
  ),
  C(
    'notes: exchange db',
    `exchange mailbox database full on SYD-EXCH-01. transaction logs not truncating because backup failed.\nran Get-MailboxDatabaseCopyStatus\nstarted a full backup, logs truncated after it finished.\nconfirmed free space back to 30%.`,
    ['Get-MailboxDatabaseCopyStatus'],
    ['exchange', 'mailbox', 'database'],
  ),
  C(
    'how-to: rdp',
    `How to enable remote desktop on a server\nOpen System Properties.\nSelect Allow remote connections.\nSet-ItemProperty -Path 'HKLM:\\System\\CurrentControlSet\\Control\\Terminal Server' -Name fDenyTSConnections -Value 0\nEnable-NetFirewallRule -DisplayGroup "Remote Desktop"\nTest the connection with mstsc.`,
    [
      "Set-ItemProperty -Path 'HKLM:\\System\\CurrentControlSet\\Control\\Terminal Server' -Name fDenyTSConnections -Value 0",
      'Enable-NetFirewallRule -DisplayGroup "Remote Desktop"',
    ],
    ['remote', 'desktop'],
  ),
  C(
    'ticket: sql backup',
    `Ticket 99120 - nightly SQL backup failed on DB-07\nThe agent job failed with "disk full" error.\nCleared old backup files and reran the job.\nsqlcmd -S DB-07 -Q "BACKUP DATABASE Sales TO DISK='E:\\bak\\Sales.bak'"\nBackup completed successfully.`,
    [`sqlcmd -S DB-07 -Q "BACKUP DATABASE Sales TO DISK='E:\\bak\\Sales.bak'"`],
    ['backup', 'sql'],
  ),
  C(
    'shell: docker',
    `docker ps -a\ndocker logs web --tail 100\ndocker restart web\ncurl -I http://127.0.0.1:8080/health`,
    ['docker ps -a', 'docker logs web --tail 100', 'docker restart web', 'curl -I http://127.0.0.1:8080/health'],
    ['docker', 'procedure', 'notes', 'operations'],
  ),
  C(
    'email: patching window',
    `Subject: Patching this weekend\nHi all,\nMonthly patching runs Saturday night in the maintenance window.\nApprove the updates in WSUS first.\nThen patch the test group and reboot.\nThen patch production servers.\nCheck all servers are back online Sunday morning.\nThanks`,
    [],
    ['patching'],
  ),
  C(
    'ticket: gpo',
    `REQ-4410: new GPO not applying to laptops\nLaptops in the Sales OU do not get the new drive mapping.\nran gpupdate /force on a test laptop\ngpresult /r showed the GPO filtered out by security filtering.\nAdded Authenticated Users to the security filter.\nConfirmed the drive mapping appears after a reboot.`,
    ['gpupdate /force', 'gpresult /r'],
    ['gpo', 'applying', 'laptops'],
  ),
  C(
    'chat: cert expired',
    `[14:01] hannah: OWA shows certificate expired\n[14:03] hannah: certutil -store My\n[14:05] hannah: imported the renewed cert and updated the IIS binding\n[14:06] hannah: iisreset\n[14:08] tom: OWA works now`,
    ['certutil -store My', 'iisreset'],
    ['owa', 'certificate'],
  ),
  C(
    'ticket: pos terminal frozen',
    `INC0031102 - POS terminal frozen at Sydney store\nTill 2 hangs on the sale screen.\nRestarted the POS terminal.\nRestarted the POS service on SYD-POS-01 with Restart-Service PosAgent\nTill is processing sales again.`,
    ['Restart-Service PosAgent'],
    ['pos', 'terminal', 'frozen'],
  ),
  C(
    'notes: intune',
    `autopilot enrolment failing for new laptops. error 0x80180014.\ncause: device was still registered in another tenant.\nremoved the device from the old tenant, imported the hardware hash again.\nGet-WindowsAutopilotInfo -OutputFile hash.csv\nenrolment worked after that.`,
    ['Get-WindowsAutopilotInfo -OutputFile hash.csv'],
    ['autopilot', 'enrolment'],
  ),
  C(
    'build: domain controller',
    `New domain controller build for Melbourne\nBuild the VM from the Windows Server 2022 template.\nInstall-WindowsFeature AD-Domain-Services -IncludeManagementTools\nInstall-ADDSDomainController -DomainName corp.example\nRun dcdiag /v after the reboot.\nCheck replication with repadmin /replsummary`,
    [
      'Install-WindowsFeature AD-Domain-Services -IncludeManagementTools',
      'Install-ADDSDomainController -DomainName corp.example',
      'dcdiag /v',
      'repadmin /replsummary',
    ],
    ['domain', 'controller'],
  ),
  C(
    'ticket: service crash',
    `Case 5521 - app service keeps crashing on DEV-APP-01\njournalctl -u app.service --since today\nOut of memory in the logs. Increased the memory limit in the unit file.\nsudo systemctl daemon-reload\nsudo systemctl restart app.service\nService stable for 2 hours.`,
    ['journalctl -u app.service --since today', 'sudo systemctl daemon-reload', 'sudo systemctl restart app.service'],
    ['crashing', 'service'],
  ),
  C(
    'email: vpn',
    `Subject: VPN drops every 10 minutes\nUsers at Perth report the VPN disconnects every 10 minutes.\nThe cause was an idle timeout on the firewall.\nChanged the idle timeout to 8 hours.\nAsked users to reconnect and confirmed the tunnel stays up.`,
    [],
    ['vpn'],
  ),
  C(
    'how-to: teams room',
    `how to fix a teams room that won't join meetings\nrestart the console\ncheck the resource account licence in the admin centre\nTest-NetConnection teams.microsoft.com -Port 443\njoin a test meeting to confirm`,
    ['Test-NetConnection teams.microsoft.com -Port 443'],
    ['teams', 'room'],
  ),
  C(
    'ticket: raid',
    `INC0040001 failed disk on BNE-FS-01\niLO shows drive bay 3 failed, RAID degraded.\nReplaced the drive with the spare.\nRAID rebuild finished after 4 hours and the array is healthy.`,
    [],
    ['disk', 'failed'],
  ),
  C(
    'shell: powershell service',
    `PS C:\\> Get-Service W3SVC\nPS C:\\> Restart-Service W3SVC\nPS C:\\> Invoke-WebRequest http://127.0.0.1 -UseBasicParsing`,
    ['Get-Service W3SVC', 'Restart-Service W3SVC', 'Invoke-WebRequest http://127.0.0.1 -UseBasicParsing'],
    ['procedure', 'notes', 'operations', 'iis', 'windows'],
  ),
  C(
    'chat: password reset',
    `grace: user needs a password reset, locked out\ngrace: Set-ADAccountPassword -Identity mlee -Reset\ngrace: Unlock-ADAccount -Identity mlee\nmlee: I can sign in now`,
    ['Set-ADAccountPassword -Identity mlee -Reset', 'Unlock-ADAccount -Identity mlee'],
    ['password', 'reset'],
  ),
  C(
    'work instruction: weekly',
    `Weekly SCCM maintenance\nEvery Monday review the software update deployments.\nCheck the distribution point health in the console.\nClean up expired updates.\nRecord the results in the change log.`,
    [],
    ['sccm', 'maintenance'],
  ),
  C(
    'ticket: enterprise vault',
    `Ticket 66002 - Enterprise Vault archiving stopped\nMailboxes are not being archived since Tuesday.\nThe task controller service had stopped due to a full vault store partition.\nAdded a new partition and started the task controller service.\nArchiving resumed and the queue is emptying.`,
    [],
    ['vault', 'archiving'],
  ),
  C(
    'notes: linux disk',
    `web server disk full again\ndf -h\ndu -sh /var/log/*\nsudo journalctl --vacuum-time=7d\nfreed 12 GB. root cause is journald with no size limit.`,
    ['df -h', 'du -sh /var/log/*', 'sudo journalctl --vacuum-time=7d'],
    ['disk', 'full'],
  ),
  C(
    'email: o365 licence',
    `Subject: licences for new starters\nHi,\nNew starters need an O365 licence before day one.\nAdd the user to the M365-E3 licensing group in Entra.\nCheck that the licence shows in the admin centre after an hour.\nCheers`,
    [],
    ['licence', 'starters'],
  ),
];

const PLACEHOLDER =
  /\[(insert|add|your|enter|todo)[^\]]*\]|lorem ipsum|placeholder|\bTBD\b|\{\{|<[A-Z_ ]{3,}>|\bxxx\b/i;

/** Fenced blocks of markdown (indented ones under list items too): [language, lines][]. */
function fences(md: string): [string, string[]][] {
  return [...md.matchAll(/^( *)```(\w*)\n([\s\S]*?)^\1```/gm)].map((m) => [
    m[2],
    m[3]
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  ]);
}

export interface WritingResult {
  name: string;
  failures: string[];
}

function check(
  input: MessyInput,
  title: string,
  tags: string[],
  content: string,
  vocabulary: (t: string) => boolean,
): string[] {
  const f: string[] = [];
  const blocks = fences(content);
  const fenced = blocks.flatMap(([, lines]) => lines);
  if (!/^##? \S/m.test(content)) f.push('no heading');
  if (input.steps && !/^\d+\. \S/m.test(content)) f.push('no numbered steps');
  for (const c of input.commands) if (!fenced.includes(c)) f.push(`command not in a code block: ${c}`);
  if (blocks.some(([lang]) => !lang)) f.push('a code block without a language');
  const said = input.text.replace(/\s+/g, ' ');
  for (const line of fenced) if (!said.includes(line)) f.push(`invented command: ${line}`);
  if (PLACEHOLDER.test(`${title}\n${content}`)) f.push('placeholder text');
  if (!title || title.length > 90 || title.split(/\s+/).length < 2) f.push(`title not sensible: ${title}`);
  if (!input.titleHas.some((w) => title.toLowerCase().includes(w))) f.push(`title misses the subject: ${title}`);
  if (!tags.length) f.push('no tags');
  for (const t of tags) if (!vocabulary(t)) f.push(`tag outside the vocabulary: ${t}`);
  return f;
}

/** Auto Create KB and Enhance with AI on every input; what each got wrong. */
export async function evaluateWriting(engine: Engine, vocabulary: (tag: string) => boolean): Promise<WritingResult[]> {
  const out: WritingResult[] = [];
  for (const input of INPUTS) {
    const preview = await engine.previewKb(input.text);
    const enhanced = await engine.enhanceContent({ title: null, content: input.text });
    out.push({
      name: input.name,
      failures: [
        ...check(input, preview.title, preview.tags ?? [], preview.content, vocabulary).map((x) => `auto-create: ${x}`),
        ...check(input, enhanced.suggestedTitle, enhanced.extractedTags, enhanced.improvedContent, vocabulary).map(
          (x) => `enhance: ${x}`,
        ),
        ...(preview.category && !['General', ...categories].includes(preview.category) ? ['unknown category'] : []),
      ],
    });
  }
  const h1 = await engine.enhanceContent({
    title: 'Print spooler',
    content: '# Print spooler fix\n\nThe spooler stops. Restart it.',
  });
  out.push({
    name: 'enhance keeps the H1',
    failures:
      h1.improvedContent.startsWith('# Print spooler fix\n') && !PLACEHOLDER.test(h1.summary) ? [] : ['H1 not kept'],
  });
  return out;
}

/**
 * The answer-quality fleet: servers in five locations with functions, owners and statuses (loopback addresses
 * only), team contacts, and a knowledge base whose items are linked to their servers.
 */
import type { Db } from '../../../src/db/client';
import { servers, teamMembers, users } from '../../../src/db/schema';
import { createItem } from '../../../src/knowledge/service';

type Status = 'online' | 'offline' | 'warning' | 'maintenance';
type Env = 'production' | 'staging' | 'development';

/** name, location, function, owner, status, environment, operating system */
const FLEET: [string, string, string, string, Status, Env, string][] = [
  ['AUB-POS-01', 'Auburn', 'POS application server', 'Retail Systems', 'online', 'production', 'Windows Server 2022'],
  ['AUB-POS-02', 'Auburn', 'POS application server', 'Retail Systems', 'offline', 'production', 'Windows Server 2022'],
  ['AUB-POS-03', 'Auburn', 'POS database', 'Retail Systems', 'offline', 'production', 'Windows Server 2019'],
  ['AUB-FS-01', 'Auburn', 'File server', 'Infrastructure', 'warning', 'production', 'Windows Server 2019'],
  ['AUB-DC-01', 'Auburn', 'Domain controller', 'Identity', 'online', 'production', 'Windows Server 2022'],
  ['SYD-POS-01', 'Sydney', 'POS application server', 'Retail Systems', 'online', 'production', 'Windows Server 2022'],
  [
    'SYD-POS-02',
    'Sydney',
    'POS application server',
    'Retail Systems',
    'maintenance',
    'production',
    'Windows Server 2022',
  ],
  ['SYD-WEB-01', 'Sydney', 'Web front end', 'Digital', 'offline', 'production', 'Ubuntu 22.04'],
  ['SYD-WEB-02', 'Sydney', 'Web front end', 'Digital', 'online', 'staging', 'Ubuntu 22.04'],
  ['SYD-ADFS-01', 'Sydney', 'ADFS federation server', 'Identity', 'online', 'production', 'Windows Server 2019'],
  ['SYD-EXCH-01', 'Sydney', 'Exchange mailbox server', 'Messaging', 'warning', 'production', 'Windows Server 2019'],
  [
    'MEL-POS-01',
    'Melbourne',
    'POS application server',
    'Retail Systems',
    'online',
    'production',
    'Windows Server 2022',
  ],
  ['MEL-CTX-01', 'Melbourne', 'Citrix StoreFront', 'End User Computing', 'online', 'production', 'Windows Server 2019'],
  [
    'MEL-CTX-02',
    'Melbourne',
    'Citrix delivery controller',
    'End User Computing',
    'offline',
    'production',
    'Windows Server 2019',
  ],
  [
    'MEL-SCCM-01',
    'Melbourne',
    'SCCM primary site',
    'End User Computing',
    'online',
    'production',
    'Windows Server 2022',
  ],
  ['MEL-DC-01', 'Melbourne', 'Domain controller', 'Identity', 'online', 'production', 'Windows Server 2022'],
  [
    'BNE-POS-01',
    'Brisbane',
    'POS application server',
    'Retail Systems',
    'warning',
    'production',
    'Windows Server 2019',
  ],
  ['BNE-FS-01', 'Brisbane', 'File server', 'Infrastructure', 'online', 'production', 'Windows Server 2019'],
  ['BNE-ESX-01', 'Brisbane', 'VMware ESXi host', 'Infrastructure', 'online', 'production', 'VMware ESXi 8'],
  ['BNE-ESX-02', 'Brisbane', 'VMware ESXi host', 'Infrastructure', 'maintenance', 'production', 'VMware ESXi 8'],
  ['PER-POS-01', 'Perth', 'POS application server', 'Retail Systems', 'online', 'production', 'Windows Server 2022'],
  ['PER-BKP-01', 'Perth', 'Backup server', 'Infrastructure', 'online', 'production', 'Windows Server 2022'],
  ['PER-DNS-01', 'Perth', 'DNS server', 'Network', 'online', 'production', 'Ubuntu 22.04'],
  ['DB-07', 'Sydney', 'SQL Server database', 'Database Team', 'online', 'production', 'Windows Server 2022'],
  ['DB-08', 'Melbourne', 'PostgreSQL database', 'Database Team', 'warning', 'staging', 'Ubuntu 22.04'],
  ['DEV-APP-01', 'Melbourne', 'Application server', 'Digital', 'online', 'development', 'Ubuntu 22.04'],
  ['DEV-APP-02', 'Sydney', 'Application server', 'Digital', 'offline', 'development', 'Ubuntu 22.04'],
  ['STG-POS-01', 'Auburn', 'POS application server', 'Retail Systems', 'online', 'staging', 'Windows Server 2022'],
];

const CONTACT: Record<string, string> = {
  'Retail Systems': 'Priya Raman',
  Infrastructure: 'Tom Walker',
  Identity: 'Grace Liu',
  Digital: 'Sam Okafor',
  Messaging: 'Hannah Cole',
  'End User Computing': 'Luis Ortega',
  Network: 'Bob Singh',
  'Database Team': 'Mei Chen',
};

/** title, category, tags, content, the servers it is linked to */
const KNOWLEDGE: [string, string, string[], string, string[]][] = [
  [
    'Renew the ADFS token-signing certificate',
    'ADFS',
    ['adfs', 'certificate'],
    'The ADFS token-signing certificate expires yearly. Renew it before it expires.\n\n1. Sign in to SYD-ADFS-01.\n2. Run `Update-AdfsCertificate -CertificateType Token-Signing -Urgent`.\n3. Update the relying party trusts.',
    ['SYD-ADFS-01'],
  ],
  [
    'Restart a POS terminal',
    'POS',
    ['pos', 'till'],
    'When a till freezes or the POS application hangs, restart the POS terminal, then restart the POS service on the store server.',
    ['AUB-POS-01', 'SYD-POS-01'],
  ],
  [
    'POS end-of-day reconciliation fails',
    'POS',
    ['pos', 'eod'],
    'Symptoms: the end of day report does not balance. Cause: the POS database backup ran during trading. Resolution: rerun the end-of-day job.',
    ['AUB-POS-03'],
  ],
  [
    'Reset a user password in Active Directory',
    'Windows Server',
    ['active directory', 'password'],
    'Open Active Directory Users and Computers, find the account, choose Reset Password and tick "User must change password at next logon". Unlock the account if it is locked out.',
    ['AUB-DC-01', 'MEL-DC-01'],
  ],
  [
    'Expand a VMware datastore',
    'vMware',
    ['vmware', 'datastore', 'storage'],
    'Grow the LUN on the SAN first, then rescan the storage adapters in vCenter and increase the datastore capacity.',
    ['BNE-ESX-01', 'BNE-ESX-02'],
  ],
  [
    'Monthly Windows patching with WSUS',
    'Patching',
    ['patching', 'wsus', 'windows update'],
    'Approve the cumulative updates in WSUS, patch the test group first, then production servers in the maintenance window, and reboot.',
    [],
  ],
  [
    'Troubleshoot DNS resolution failures',
    'DNS',
    ['dns', 'nslookup'],
    'If names do not resolve, run nslookup against PER-DNS-01, check the forwarders and flush the DNS cache with ipconfig /flushdns.',
    ['PER-DNS-01'],
  ],
  [
    'Restore a file from backup',
    'General',
    ['backup', 'restore'],
    'Open the backup console on PER-BKP-01, browse to the file share snapshot, pick the version and restore it to its original location.',
    ['PER-BKP-01', 'AUB-FS-01', 'BNE-FS-01'],
  ],
  [
    'Citrix StoreFront shows no apps',
    'Citrix',
    ['citrix', 'storefront'],
    'When users see no applications in Citrix Workspace, check the delivery controller services and the StoreFront store configuration.',
    ['MEL-CTX-01', 'MEL-CTX-02'],
  ],
  [
    'Exchange mailbox database is full',
    'Exchange SE',
    ['exchange', 'mailbox'],
    'When the Exchange mailbox database runs out of space, move mailboxes to another database or grow the volume; check the transaction logs are truncated by the backup.',
    ['SYD-EXCH-01'],
  ],
  [
    'Deploy an application with SCCM',
    'SCCM',
    ['sccm', 'deployment'],
    'Create the application in Configuration Manager, distribute the content to the distribution points and deploy it to a device collection.',
    ['MEL-SCCM-01'],
  ],
  [
    'Enrol a laptop in Intune with Autopilot',
    'Intune',
    ['intune', 'autopilot'],
    'Import the hardware hash, assign the Autopilot profile and have the user sign in with their work account.',
    [],
  ],
  [
    'Set up a shared mailbox in Exchange Online',
    'Exchange Online',
    ['exchange online', 'shared mailbox'],
    'Create the shared mailbox in the Exchange admin centre and grant Full Access and Send As to the team.',
    [],
  ],
  [
    'SQL Server database backup and restore',
    'General',
    ['sql', 'database', 'backup'],
    'Full backups of DB-07 run nightly; restore a database with RESTORE DATABASE ... WITH NORECOVERY then apply the logs.',
    ['DB-07'],
  ],
  [
    'Replace a failed disk in a RAID array',
    'Server Hardware',
    ['raid', 'disk', 'hardware'],
    'Identify the failed drive in iLO or iDRAC, hot-swap it and watch the RAID rebuild finish.',
    [],
  ],
  [
    'Teams meeting room troubleshooting',
    'Teams',
    ['teams', 'meeting room'],
    'If a Teams Room does not join meetings, restart the console, check the resource account licence and the network.',
    [],
  ],
  [
    'Web server returns 502 Bad Gateway',
    'General',
    ['web', 'nginx', '502'],
    'A 502 from SYD-WEB-01 means nginx cannot reach the application. Check the application service and restart nginx.',
    ['SYD-WEB-01', 'SYD-WEB-02'],
  ],
  [
    'Onboarding a new service desk analyst',
    'General',
    ['onboarding', 'service desk'],
    'Accounts to create, groups to join, the on-call roster and the first week of shadowing for a new analyst.',
    [],
  ],
  [
    'Enterprise Vault archiving stopped',
    'Enterprise Vault',
    ['enterprise vault', 'archiving'],
    'If mailbox archiving stops, restart the Enterprise Vault task controller service and check the vault store partitions.',
    [],
  ],
  [
    'Renew an SSL certificate on IIS',
    'Windows Server',
    ['iis', 'ssl', 'certificate'],
    'Create a certificate request in IIS Manager, complete it with the issued certificate and update the site binding.',
    [],
  ],
  [
    'Office 365 licence assignment',
    'O365',
    ['o365', 'licence'],
    'Assign Microsoft 365 licences through the licensing group in Entra ID rather than one user at a time.',
    [],
  ],
  [
    'Azure VM will not start',
    'Azure',
    ['azure', 'vm'],
    'Check the subscription quota and the boot diagnostics; redeploy the VM to another host if it stays stopped.',
    [],
  ],
];

export interface EvalSeed {
  userId: string;
  serverNames: string[];
  documentTitles: string[];
}

/** Seeds the fleet, the team and the knowledge base; returns the asker and what exists (for the invented check). */
export async function seedEvalData(db: Db): Promise<EvalSeed> {
  const [user] = await db
    .insert(users)
    .values({
      email: 'eval-ops@example.com',
      firstName: 'Eval',
      lastName: 'Ops',
      role: 'editor',
      isEmailVerified: true,
      accountStatus: 'active',
    })
    .returning({ id: users.id });
  const rows = await db
    .insert(servers)
    .values(
      FLEET.map(([name, location, fn, owner, status, environment, os], i) => ({
        name,
        hostname: `${name.toLowerCase()}.corp.example`,
        ipAddress: `127.40.${Math.floor(i / 200)}.${(i % 200) + 10}`,
        serverLocation: location,
        network: /WEB/.test(name) ? 'DMZ' : 'Secure Zone',
        domain: 'corp.example',
        environment,
        status,
        primaryFunction: fn,
        operatingSystem: os,
        teamOwner: owner,
        keyContacts: CONTACT[owner],
        cpuUsage: 10 + ((i * 7) % 70),
        memoryUsage: 20 + ((i * 11) % 60),
      })),
    )
    .returning({ id: servers.id, name: servers.name });
  const ids = Object.fromEntries(rows.map((r) => [r.name, r.id]));
  await db.insert(teamMembers).values(
    Object.entries(CONTACT).map(([department, name]) => ({
      name,
      email: `${name.split(' ')[0].toLowerCase()}@example.com`,
      role: department === 'Network' ? 'Network Administrator' : 'System Administrator',
      department,
      status: name === 'Bob Singh' ? ('inactive' as const) : ('active' as const),
    })),
  );
  for (const [title, category, tags, content, linked] of KNOWLEDGE) {
    await createItem(
      db,
      'knowledge',
      {
        title,
        content,
        excerpt: content.split(/(?<=\.)\s/)[0],
        category,
        tags,
        isPublished: true,
        serverIds: linked.map((n) => ids[n]),
      },
      user.id,
    );
  }
  return { userId: user.id, serverNames: FLEET.map((f) => f[0]), documentTitles: KNOWLEDGE.map((k) => k[0]) };
}

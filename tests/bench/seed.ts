/** Bench data: servers on loopback addresses, knowledge items and documents with a realistic vocabulary. */
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client';
import { documents, servers, users } from '../../src/db/schema';
import { ARTICLES, article } from './article';

const WORDS = (
  'backup restore patching cluster failover replication certificate renewal firewall rule vlan switch router ' +
  'gateway dns record zone forwarder dhcp scope lease active directory group policy account lockout password ' +
  'vmware vcenter esxi datastore snapshot vmotion azure subscription tenant intune compliance exchange mailbox ' +
  'teams policy citrix receiver storefront sccm deployment baseline windows linux ubuntu kernel upgrade reboot ' +
  'monitoring alert threshold disk memory cpu latency network storage san lun raid controller firmware bios ' +
  'escalation incident change request runbook procedure checklist rollback verification owner contact vendor'
).split(' ');
const CATEGORIES = [
  'Azure',
  'O365',
  'vMware',
  'Windows Server',
  'Teams',
  'Exchange SE',
  'DNS',
  'Patching',
  'POS',
  'Citrix',
  'SCCM',
  'Intune',
];
const ENVIRONMENTS = ['production', 'staging', 'development'] as const;
const STATUSES = ['online', 'online', 'online', 'warning', 'offline', 'maintenance'] as const;
const LOCATIONS = ['Auburn', 'Sydney', 'Melbourne', 'Brisbane', 'Perth', 'Auckland'];

function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A realistic inventory grows over years: item i of n was created that far back (newest last), within `days`. */
function createdAgo(i: number, n: number, days: number, random: () => number) {
  const createdAt = new Date(Date.now() - ((n - i) / n) * days * DAY_MS);
  const updatedAt = new Date(Math.min(Date.now(), createdAt.getTime() + random() * 30 * DAY_MS));
  return { createdAt, updatedAt };
}

function words(random: () => number, n: number): string {
  return Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
}

/** A server-side "server" word in most items, "kerberos" in about 1 in 200: the bench's common and ordinary words. */
function content(random: () => number, i: number): string {
  const common = random() < 0.8 ? 'Check the server first. ' : '';
  const rare = i % 200 === 0 ? ' Renew the kerberos ticket.' : '';
  return `# Procedure ${i}\n\n${common}${words(random, 60)}.\n\n1. ${words(random, 12)}\n2. ${words(random, 12)}\n\n${words(random, 40)}.${rare}`;
}

export async function seedAdmin(db: Db) {
  const [admin] = await db
    .insert(users)
    .values({
      email: 'bench-admin@example.com',
      firstName: 'Bench',
      lastName: 'Admin',
      role: 'admin',
      isEmailVerified: true,
      accountStatus: 'active',
    })
    .returning();
  return admin;
}

export async function seedServers(db: Db, count: number) {
  const random = rng(7);
  for (let start = 0; start < count; start += 500) {
    const rows = Array.from({ length: Math.min(500, count - start) }, (_, k) => {
      const i = start + k;
      return {
        name: `${i % 7 === 0 ? 'db' : 'app'}-${String(i).padStart(5, '0')}`,
        hostname: `host-${i}.corp.example.com`,
        ipAddress: `127.${10 + Math.floor(i / 65536)}.${Math.floor(i / 256) % 256}.${i % 256}`,
        environment: ENVIRONMENTS[i % 3],
        status: STATUSES[Math.floor(random() * STATUSES.length)],
        operatingSystem: i % 2 ? 'Ubuntu 22.04 LTS' : 'Windows Server 2022',
        serverLocation: LOCATIONS[i % LOCATIONS.length],
        primaryFunction: i % 11 === 0 ? 'POS gateway' : words(random, 2),
        teamOwner: 'Server Services',
        cpuUsage: Math.floor(random() * 100),
        memoryUsage: Math.floor(random() * 100),
        diskUsage: Math.floor(random() * 100),
        uptime: Math.floor(random() * 5_000_000),
        // The metrics above were pushed by the server's agent (without this the table shows "—").
        metricsUpdatedAt: new Date(),
        ...createdAgo(i, count, 2 * 365, random),
      };
    });
    await db.insert(servers).values(rows);
  }
}

/**
 * Seeds `total` generated items in parts: seedUpTo(n) adds items up to the n-th. The rows are the same whether
 * seeded at once or in parts (one random sequence, dates spread over `total`), so the bench can measure a page
 * at 5,000 items and then grow the same database to 50,000.
 */
export function documentSeeder(db: Db, total: number, authorId: string) {
  const random = rng(11);
  let seeded = 0;
  return async function seedUpTo(upTo: number) {
    for (let start = seeded; start < upTo; start += 1000) {
      const rows = Array.from({ length: Math.min(1000, upTo - start) }, (_, k) => {
        const i = start + k;
        return {
          space: (i % 5 === 0 ? 'documents' : 'knowledge') as 'documents' | 'knowledge',
          title: `${words(random, 4)} ${i}`,
          content: content(random, i),
          excerpt: words(random, 15),
          category: CATEGORIES[i % CATEGORIES.length],
          tags: [WORDS[i % WORDS.length], WORDS[(i * 7) % WORDS.length]],
          authorId,
          isPublished: i % 3 !== 0,
          templateType: i % 9 === 0 ? ('how_to_guide' as const) : null,
          ...createdAgo(i, total, 3 * 365, random),
        };
      });
      await db.insert(documents).values(rows);
    }
    seeded = Math.max(seeded, upTo);
    await db.execute(sql`analyze`);
  };
}

/**
 * The real-size runbooks (tests/bench/article.ts) as published knowledge items. Dated a year back, so the lists
 * (newest first) open on the same generated items as without them.
 */
export async function seedArticles(db: Db, authorId: string) {
  const updatedAt = new Date(Date.now() - 365 * DAY_MS);
  const rows = Array.from({ length: ARTICLES }, (_, n) => article(n)).map((a) => ({
    ...a,
    space: 'knowledge' as const,
    excerpt: `${a.content.split('. ')[0]}.`,
    authorId,
    isPublished: true,
    createdAt: new Date(updatedAt.getTime() - 90 * DAY_MS),
    updatedAt,
  }));
  return db
    .insert(documents)
    .values(rows)
    .returning({ id: documents.id, title: documents.title, content: documents.content });
}

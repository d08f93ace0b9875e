/** Read model: joins servers (the teams that own servers) and settings (a user's report team). */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { badRequest } from '../http/errors';

/** How many team names the choice lists at most (servers.team_owner is free text). */
const TEAMS_LIMIT = 500;

/** The teams a health report can cover: the distinct servers.team_owner values, in order. */
export async function reportTeams(db: Db): Promise<string[]> {
  const rows = await queryRows<{ team: string }>(
    db,
    sql`select distinct team_owner as team from servers
        where team_owner is not null and team_owner <> '' order by team_owner limit ${TEAMS_LIMIT}`,
  );
  return rows.map((r) => r.team);
}

/** A chosen team: empty means every server (null); anything else must own a server now (else 400 `report_team`). */
export async function checkedReportTeam(db: Db, team: string): Promise<string | null> {
  const name = team.trim();
  if (!name) return null;
  const rows = await queryRows<{ ok: number }>(db, sql`select 1 as ok from servers where team_owner = ${name} limit 1`);
  if (!rows.length) throw badRequest('Choose a team from the list: no server is owned by that team.', 'report_team');
  return name;
}

/** The team a user's health report covers (their setting), or null for every server. */
export async function reportTeamOf(db: Db, userId: string): Promise<string | null> {
  const rows = await queryRows<{ team: string | null }>(
    db,
    sql`select report_team as team from user_preferences where user_id = ${userId}`,
  );
  return rows[0]?.team || null;
}

/** SQL condition: the server row `alias` belongs to the team (always true for every server). */
export const serverInTeam = (team: string | null, alias = 's'): SQL =>
  team === null ? sql`true` : sql`${sql.identifier(alias)}.team_owner = ${team}`;

/** SQL condition: the document row `alias` is linked to a server of the team (always true for every server). */
export const documentOfTeam = (team: string | null, alias = 'd'): SQL =>
  team === null
    ? sql`true`
    : sql`exists (select 1 from server_documents tsd join servers ts on ts.id = tsd.server_id
        where tsd.document_id = ${sql.identifier(alias)}.id and ts.team_owner = ${team})`;

/**
 * SQL condition on a review flag `f` of document `d`: it concerns the team's servers — raised by one the team owned
 * then (a deleted server's flag too, its links gone), or on a document linked to one of them now.
 */
export const flagOfTeam = (team: string | null): SQL =>
  team === null ? sql`true` : sql`(f.server_team = ${team} or ${documentOfTeam(team)})`;

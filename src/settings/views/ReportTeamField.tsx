import { TeamOptions } from '../../reports/shared/TeamOptions';
import { Field } from '../../ui/components';

export interface ReportTeamFieldProps {
  /** The saved team (null: every server). */
  saved: string | null;
  /** The value sent and its error, when the notifications form failed. */
  failed?: { value: string; error?: string };
  /** The teams that own servers. */
  teams: string[];
}

/** "Health report covers": every server, or the servers one team owns (a saved team that owns none stays listed). */
export function ReportTeamField({ saved, failed, teams }: ReportTeamFieldProps) {
  const value = failed ? failed.value : (saved ?? '');
  const error = failed?.error;
  return (
    <Field
      label="Health report covers"
      htmlFor="settings-reportTeam"
      error={error}
      hint="The report e-mail and the health report page list these servers and the documents linked to them."
    >
      <select
        id="settings-reportTeam"
        className="select"
        name="reportTeam"
        defaultValue={value}
        aria-invalid={error ? true : undefined}
      >
        <TeamOptions teams={teams} chosen={saved} />
      </select>
    </Field>
  );
}

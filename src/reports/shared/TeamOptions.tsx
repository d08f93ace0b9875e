/**
 * The options of a "which servers" select: every server, then each team that owns servers (a chosen team that owns
 * none any more stays listed, so the choice still shows). Shared by the report page and Settings.
 */
export function TeamOptions({ teams, chosen }: { teams: string[]; chosen: string | null }) {
  const choices = chosen && !teams.includes(chosen) ? [...teams, chosen] : teams;
  return (
    <>
      <option value="">All servers</option>
      {choices.map((t) => (
        <option key={t} value={t}>
          {`Servers owned by ${t}`}
        </option>
      ))}
    </>
  );
}

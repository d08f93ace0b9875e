import { Avatar, Badge, EmptyState } from '../../ui/components';
import { formatDate, initials } from '../../ui/shared';
import { Icon } from '../../ui/icons';
import { roleColour, type TeamMember } from '../schemas';
import { ChoiceLists, MemberDialogs, statusLabels, TopDialogs, type FormState } from './MemberForms';

export interface TeamPageProps {
  members: TeamMember[];
  shown: TeamMember[];
  q: string;
  timezone: string;
  /** May the reader add, edit, delete and invite (can content.write)? Viewers and auditors only read. */
  canWrite: boolean;
  add?: FormState;
  invite?: FormState;
  edit?: { id: string; state: FormState };
  open?: 'add' | 'invite' | 'edit';
}

function StatCard({ label, value }: { label: string; value: number }) {
  return (
    <div className="stat-card">
      <span className="stat-card__label">{label}</span>
      <span className="stat-card__value">{value}</span>
    </div>
  );
}

/** Header cards: Total Members, Active Now, Departments, Administrators. */
function TeamStats({ members }: { members: TeamMember[] }) {
  const departments = new Set(members.map((m) => m.department).filter(Boolean)).size;
  return (
    <section className="grid grid--4" aria-label="Team statistics">
      <StatCard label="Total Members" value={members.length} />
      <StatCard label="Active Now" value={members.filter((m) => m.status === 'active').length} />
      <StatCard label="Departments" value={departments} />
      <StatCard label="Administrators" value={members.filter((m) => m.role.includes('Administrator')).length} />
    </section>
  );
}

function MemberRow({ m, timezone, canWrite }: { m: TeamMember; timezone: string; canWrite: boolean }) {
  return (
    <li className="team-row">
      <Avatar imageUrl={m.profileImageUrl} initials={initials(m.name)} />
      <div className="team-row__main">
        <div className="row">
          <span
            className={`status-dot status-dot--${m.status === 'active' ? 'green' : 'grey'}`}
            role="img"
            aria-label={statusLabels[m.status]}
          />
          <span className="team-row__name">{m.name}</span>
          <Badge colour={roleColour(m.role)}>{m.role}</Badge>
          {m.status === 'invited' && <Badge colour="neutral">Invited</Badge>}
        </div>
        <div className="muted small team-row__meta">
          <span>{m.email}</span>
          {m.department && <span>{m.department}</span>}
          <span>{m.lastActive ? `Last active ${formatDate(m.lastActive, timezone)}` : 'Never'}</span>
        </div>
      </div>
      {canWrite && <MemberButtons m={m} />}
    </li>
  );
}

function MemberButtons({ m }: { m: TeamMember }) {
  return (
    <div className="row">
      <button type="button" className="btn btn--sm" data-open-dialog={`edit-${m.id}`} aria-label={`Edit ${m.name}`}>
        <Icon name="edit" />
        Edit
      </button>
      <button
        type="button"
        className="btn btn--sm btn--ghost"
        data-open-dialog={`delete-${m.id}`}
        aria-label={`Delete ${m.name}`}
      >
        <Icon name="trash" />
      </button>
    </div>
  );
}

/** The member list (what the search swaps) with each member's dialogs. */
export function MemberList({
  shown,
  q,
  timezone,
  edit,
  open,
  canWrite,
}: Pick<TeamPageProps, 'shown' | 'q' | 'timezone' | 'edit' | 'open' | 'canWrite'>) {
  return (
    <div id="team-list" className="card">
      {shown.length === 0 ? (
        <EmptyState
          icon="users"
          title="No team members found"
          text={q.trim() ? 'Try adjusting your search criteria' : 'Start by inviting your first team member'}
        />
      ) : (
        <ul className="team-list" aria-label="Team members">
          {shown.map((m) => (
            <MemberRow key={m.id} m={m} timezone={timezone} canWrite={canWrite} />
          ))}
        </ul>
      )}
      {canWrite &&
        shown.map((m) => (
          <MemberDialogs
            key={m.id}
            member={m}
            edit={edit?.id === m.id ? edit.state : undefined}
            open={open === 'edit' && edit?.id === m.id}
          />
        ))}
    </div>
  );
}

/** Team Management: cards, search, the list and the dialogs. Re-rendered whole after a change. */
export function TeamPage(props: TeamPageProps) {
  return (
    <div id="team-page" className="stack">
      <TeamStats members={props.members} />
      <div className="toolbar">
        {/* biome-ignore lint/a11y/useSemanticElements: the form is the search landmark; <search> adds a box */}
        <form method="get" action="/team" role="search" className="team-search">
          <label className="visually-hidden" htmlFor="team-search">
            Search team members
          </label>
          <input
            id="team-search"
            className="input"
            type="search"
            name="q"
            placeholder="Search by name, email, role or department..."
            defaultValue={props.q}
            hx-get="/team"
            hx-trigger="input changed delay:300ms, search"
            hx-target="#team-list"
            hx-swap="outerHTML"
            hx-push-url="true"
          />
        </form>
        <span className="spacer" />
        {props.canWrite && (
          <>
            <button type="button" className="btn" data-open-dialog="invite-member">
              <Icon name="mail" />
              Invite Member
            </button>
            <button type="button" className="btn btn--primary" data-open-dialog="add-member">
              <Icon name="plus" />
              Add Team Member
            </button>
          </>
        )}
      </div>
      <MemberList
        shown={props.shown}
        q={props.q}
        timezone={props.timezone}
        edit={props.edit}
        open={props.open}
        canWrite={props.canWrite}
      />
      {props.canWrite && (
        <>
          <TopDialogs
            add={props.add}
            invite={props.invite}
            open={props.open === 'add' || props.open === 'invite' ? props.open : undefined}
          />
          <ChoiceLists />
        </>
      )}
    </div>
  );
}

import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type SortingState,
  type VisibilityState,
} from '@tanstack/react-table';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  ENVIRONMENTS,
  firstCheckPending,
  healthCheckMessage,
  PROBE_TIMEOUT_MS,
  SERVER_PAGE_SIZE,
  type CheckedServer,
  type Server,
} from '../src/servers/shared';
import { listParams, type ListedServer, type ServerPage } from '../src/servers/shared/list';
import { api } from './_lib/api';
import { ColumnMenu } from './_lib/servers/ColumnMenu';
import { ConfirmDialog } from './_lib/ConfirmDialog';
import { serverColumns } from './_lib/servers/columns';
import { Icon } from './_lib/icons';
import { Pager } from './_lib/servers/Pager';
import { defaultVisibility, loadVisibility, saveVisibility, type Filters } from './_lib/servers/prefs';
import { toast } from './_lib/toast';

/** The add/edit dialog (its form and checks editor) loads when first opened: the table's first paint does not wait. */
const ServerDialog = lazy(() => import('./_lib/servers/ServerDialog').then((m) => ({ default: m.ServerDialog })));

const STATUS_FILTERS = ['online', 'warning', 'offline', 'maintenance'] as const;
const PAGE_SIZE = SERVER_PAGE_SIZE;
/** Typing waits this long before asking for the matches (each keystroke is not a request). */
const SEARCH_DELAY_MS = 250;

export interface ServerTableProps {
  /** The rows of the page shown first: filters, sort and ?page= (or the highlighted row's page) applied on the server. */
  pageRows: ListedServer[];
  /** How many servers match the filters, and the 0-based page pageRows is. */
  total: number;
  pageIndex: number;
  /** Linked documents per server id. */
  docCounts: Record<string, number>;
  filters: Filters;
  /** ?sort=: a column id, "-" first for descending ("server" = natural name order, the default). */
  sort: string;
  /** ?server={id}: the row to highlight. */
  highlightId: string | null;
  /** ?create=server: open the add dialog. */
  openCreate: boolean;
  /** The user's saved timezone (a prop, so the server and the browser format times alike). */
  timeZone: string;
  /** May the user add, edit, delete and check servers (the server decides; viewers and auditors may not)? */
  canWrite: boolean;
  /** The icon sprite's URL (src/ui/icons.tsx): the rows' icons point at it instead of repeating their paths. */
  iconSprite: string;
}

interface View {
  filters: Filters;
  /** The header's sort (none = natural name order, like "server" ascending). */
  sorting: SortingState;
  pageIndex: number;
  /** Ask for the availability column's figures. */
  availability: boolean;
}

const sortingOf = (sort: string): SortingState =>
  sort === 'server' ? [] : [{ id: sort.replace(/^-/, ''), desc: sort.startsWith('-') }];
const sortOf = (s: SortingState): string => (s[0] ? `${s[0].desc ? '-' : ''}${s[0].id}` : 'server');

function pageUrl(v: Pick<View, 'filters' | 'sorting' | 'pageIndex'>, extra: Record<string, string> = {}): string {
  const params = listParams({ ...v.filters, sort: sortOf(v.sorting), page: v.pageIndex + 1 });
  for (const [k, value] of Object.entries(extra)) params.set(k, value);
  const qs = params.toString();
  return qs ? `/infrastructure?${qs}` : '/infrastructure';
}

function apiUrl(v: View): string {
  const params = listParams({ ...v.filters, sort: sortOf(v.sorting), page: v.pageIndex + 1 });
  params.set('page', String(v.pageIndex + 1));
  params.set('pageSize', String(PAGE_SIZE));
  if (v.availability) params.set('columns', 'availability');
  return `/api/servers?${params}`;
}

/**
 * The Infrastructure screen's server table: search, filters, sorting, columns, row actions, add/edit dialog.
 * The server renders the first page (it reads and pages without JavaScript); here every search, filter, sort and
 * page asks GET /api/servers for that page only, so the browser never holds more than one page of the inventory.
 */
export default function ServerTable(props: ServerTableProps) {
  const [view, setView] = useState<View>({
    filters: props.filters,
    sorting: sortingOf(props.sort),
    pageIndex: props.pageIndex,
    availability: false,
  });
  const [data, setData] = useState({ rows: props.pageRows, total: props.total });
  const [pending, setPending] = useState(0);
  const [hydrated, setHydrated] = useState(false);
  const [visibility, setVisibility] = useState<VisibilityState>(defaultVisibility);
  const [dialog, setDialog] = useState<{ server: Server | null } | null>(
    props.openCreate && props.canWrite ? { server: null } : null,
  );
  const [highlight, setHighlight] = useState(props.highlightId);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Server | null>(null);
  const docCounts = props.docCounts;
  const latest = useRef(0);
  const viewRef = useRef(view);
  viewRef.current = view;
  const firstView = useRef(true);

  /** Asks for the page of `v`; an answer to an older request than the latest is dropped. */
  const load = useCallback(async (v: View, failure = 'Failed to refresh server data. Please try again.') => {
    const id = ++latest.current;
    setPending((n) => n + 1);
    try {
      const page = await api<ServerPage>('GET', apiUrl(v));
      if (id !== latest.current) return true;
      // Past the last page (its last rows were deleted or filtered away): the last page there is.
      const last = Math.max(0, Math.ceil(page.total / PAGE_SIZE) - 1);
      if (page.servers.length === 0 && v.pageIndex > last) setView((now) => ({ ...now, pageIndex: last }));
      else setData({ rows: page.servers, total: page.total });
      return true;
    } catch {
      if (id === latest.current) toast('Error', failure, 'error');
      return false;
    } finally {
      setPending((n) => n - 1);
    }
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: on mount only: saved columns, the linked row
  useEffect(() => {
    const saved = loadVisibility();
    setVisibility(saved);
    setHydrated(true);
    if (props.openCreate) history.replaceState(history.state, '', pageUrl(view));
    if (!props.highlightId) return;
    const id = props.highlightId;
    const scroll = setTimeout(
      () =>
        document
          .querySelector(`tr[data-row-id="${CSS.escape(id)}"]`)
          ?.scrollIntoView({ block: 'center', behavior: 'smooth' }),
      500,
    );
    const clear = setTimeout(() => {
      setHighlight(null);
      history.replaceState(history.state, '', pageUrl(viewRef.current));
    }, 5000);
    return () => {
      clearTimeout(scroll);
      clearTimeout(clear);
    };
  }, []);

  // The availability figures come with the page when their column is shown.
  useEffect(() => {
    if (hydrated)
      setView((v) =>
        v.availability === !!visibility.availability ? v : { ...v, availability: !!visibility.availability },
      );
  }, [hydrated, visibility.availability]);

  // Every change of the view: the address, then the page (typing waits a little).
  const typed = useRef(view.filters.q);
  useEffect(() => {
    if (firstView.current) {
      firstView.current = false;
      return;
    }
    const server = new URL(location.href).searchParams.get('server');
    history.replaceState(history.state, '', pageUrl(view, server ? { server } : {}));
    const delay = typed.current === view.filters.q ? 0 : SEARCH_DELAY_MS;
    typed.current = view.filters.q;
    const timer = setTimeout(() => void load(view), delay);
    return () => clearTimeout(timer);
  }, [view, load]);

  const reload = useCallback(() => load(viewRef.current), [load]);
  const replaceRow = useCallback(
    (s: Server) => setData((d) => ({ ...d, rows: d.rows.map((x) => (x.id === s.id ? { ...x, ...s } : x)) })),
    [],
  );

  const actions = useMemo(
    () => ({
      busyId,
      edit: (s: Server) => setDialog({ server: s }),
      check: async (s: Server) => {
        setBusyId(s.id);
        try {
          const { check, ...updated } = await api<CheckedServer>('POST', `/api/servers/${s.id}/health-check`);
          replaceRow(updated);
          const variant = !check ? 'info' : check.status === 'offline' ? 'error' : 'success';
          toast('Health Check Complete', healthCheckMessage(updated.name, check), variant);
        } catch {
          toast('Health Check Failed', 'Failed to perform health check. Please try again.', 'error');
        } finally {
          setBusyId(null);
        }
      },
      remove: (s: Server) => setDeleting(s),
      canWrite: props.canWrite,
      iconSprite: props.iconSprite,
    }),
    [busyId, replaceRow, props.canWrite, props.iconSprite],
  );

  async function deleteServer(s: Server) {
    try {
      await api('DELETE', `/api/servers/${s.id}`);
      setData((d) => ({ rows: d.rows.filter((x) => x.id !== s.id), total: d.total - 1 }));
      toast('Success', 'Server deleted successfully.');
      void reload();
    } catch {
      toast('Error', 'Failed to delete server. Please try again.', 'error');
    }
  }
  const columns = useMemo(
    () => serverColumns(actions, docCounts, props.timeZone),
    [actions, docCounts, props.timeZone],
  );

  const table = useReactTable({
    data: data.rows,
    columns,
    state: {
      sorting: view.sorting,
      columnVisibility: visibility,
      pagination: { pageIndex: view.pageIndex, pageSize: PAGE_SIZE },
    },
    // The server filters, sorts and pages: the table shows the page it answered.
    manualPagination: true,
    manualSorting: true,
    pageCount: Math.ceil(data.total / PAGE_SIZE),
    onSortingChange: (change) =>
      setView((v) => ({
        ...v,
        sorting: typeof change === 'function' ? change(v.sorting) : change,
        pageIndex: 0,
      })),
    getCoreRowModel: getCoreRowModel(),
    getRowId: (s) => s.id,
    sortDescFirst: false,
  });

  function changeVisibility(next: VisibilityState) {
    setVisibility(next);
    saveVisibility(next);
  }

  async function refresh() {
    if (await reload()) toast('Refreshed', 'Server data has been refreshed.');
  }

  function saved(s: Server, created: boolean) {
    if (created) void reload();
    else replaceRow(s);
    setDialog(null);
    if (created && firstCheckPending(s)) setTimeout(() => void fetchRow(s.id), PROBE_TIMEOUT_MS + 1000);
  }

  /** Shows a server as stored now (its first check, stored after Add Server answered). */
  async function fetchRow(id: string) {
    try {
      replaceRow(await api<Server>('GET', `/api/servers/${id}`));
    } catch {
      // Deleted meanwhile, or offline: the next Refresh shows it.
    }
  }

  const filters = view.filters;
  const set = (k: keyof Filters) => (e: { target: { value: string } }) =>
    setView((v) => ({ ...v, filters: { ...v.filters, [k]: e.target.value }, pageIndex: 0 }));
  const filtering = !!(filters.q.trim() || filters.environment || filters.status);
  const rows = data.rows;
  const total = data.total;

  return (
    <div className="server-table" data-loaded={hydrated && pending === 0 ? '' : undefined}>
      {/* biome-ignore lint/a11y/useSemanticElements: <form role=search> is the landmark, like other ones */}
      <form
        className="toolbar"
        method="get"
        action="/infrastructure"
        role="search"
        onSubmit={(e) => e.preventDefault()}
      >
        <input
          className="input"
          type="search"
          name="q"
          value={filters.q}
          onChange={set('q')}
          placeholder="Search servers..."
          aria-label="Search servers"
        />
        <select
          className="select"
          name="environment"
          value={filters.environment}
          onChange={set('environment')}
          aria-label="Filter by environment"
        >
          <option value="">All Environments</option>
          {ENVIRONMENTS.map((e) => (
            <option key={e} value={e}>
              {e}
            </option>
          ))}
        </select>
        <select
          className="select"
          name="status"
          value={filters.status}
          onChange={set('status')}
          aria-label="Filter by status"
        >
          <option value="">All Statuses</option>
          {STATUS_FILTERS.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        {sortOf(view.sorting) !== 'server' && <input type="hidden" name="sort" value={sortOf(view.sorting)} />}
        <noscript>
          <button type="submit" className="btn">
            Apply
          </button>
        </noscript>
        <span className="spacer" />
        <button type="button" className="btn" onClick={refresh}>
          <Icon name="refresh" /> Refresh
        </button>
        <ColumnMenu
          visibility={visibility}
          onToggle={(id, on) => changeVisibility({ ...visibility, [id]: on })}
          onReset={() => {
            changeVisibility(defaultVisibility());
            toast('Reset', 'Column visibility reset to default.');
          }}
        />
        {props.canWrite && (
          <button type="button" className="btn btn--primary" onClick={() => setDialog({ server: null })}>
            <Icon name="plus" /> Add Server
          </button>
        )}
      </form>

      <section className="card">
        <header className="card__header">
          <h2 className="card__title">Servers ({total})</h2>
        </header>
        {rows.length === 0 ? (
          <div className="empty-state">
            <Icon name="server" />
            {filtering ? (
              <>
                <p className="empty-state__title">No servers found</p>
                <p className="empty-state__text">Try adjusting your search or filter criteria</p>
              </>
            ) : (
              <>
                <p className="empty-state__title">No servers configured</p>
                {props.canWrite && (
                  <>
                    <p className="empty-state__text">Get started by adding your first server</p>
                    <button type="button" className="btn btn--primary" onClick={() => setDialog({ server: null })}>
                      <Icon name="plus" /> Add Your First Server
                    </button>
                  </>
                )}
              </>
            )}
          </div>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                {table.getHeaderGroups().map((g) => (
                  <tr key={g.id}>
                    {g.headers.map((h) => {
                      const sorted = h.column.getIsSorted();
                      return (
                        <th
                          key={h.id}
                          data-column={h.column.id}
                          aria-sort={sorted ? (sorted === 'asc' ? 'ascending' : 'descending') : undefined}
                        >
                          {h.column.getCanSort() ? (
                            <button type="button" onClick={h.column.getToggleSortingHandler()}>
                              {flexRender(h.column.columnDef.header, h.getContext())}
                              <Icon name={sorted === 'asc' ? 'up' : sorted === 'desc' ? 'down' : 'sort'} />
                            </button>
                          ) : (
                            flexRender(h.column.columnDef.header, h.getContext())
                          )}
                        </th>
                      );
                    })}
                  </tr>
                ))}
              </thead>
              <tbody>
                {table.getRowModel().rows.map((r) => (
                  <tr key={r.id} data-row-id={r.id} data-highlight={highlight === r.id ? '' : undefined}>
                    {r.getVisibleCells().map((cell) => (
                      <td key={cell.id} data-column={cell.column.id}>
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager
              pageIndex={view.pageIndex}
              pageCount={table.getPageCount()}
              total={total}
              pageSize={PAGE_SIZE}
              href={(i) => pageUrl({ ...view, pageIndex: i })}
              onPage={(i) => setView((v) => ({ ...v, pageIndex: i }))}
            />
          </div>
        )}
      </section>
      {/* Loaded on demand: rendered once hydrated (the server cannot render a lazy component). */}
      {dialog && hydrated && (
        <Suspense fallback={null}>
          <ServerDialog
            key={dialog.server?.id ?? 'new'}
            server={dialog.server}
            onClose={() => setDialog(null)}
            onSaved={saved}
          />
        </Suspense>
      )}
      {deleting && (
        <ConfirmDialog
          key={deleting.id}
          id="delete-server"
          title="Delete Server"
          question="Are you sure you want to delete this server?"
          onConfirm={() => void deleteServer(deleting)}
          onClose={() => setDeleting(null)}
        />
      )}
    </div>
  );
}

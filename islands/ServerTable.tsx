import {
  flexRender,
  getCoreRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type PaginationState,
  type SortingState,
  type VisibilityState,
} from '@tanstack/react-table';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  ENVIRONMENTS,
  firstCheckPending,
  healthCheckMessage,
  matchesServer,
  PROBE_TIMEOUT_MS,
  SERVER_PAGE_SIZE,
  sortByServerName,
  type CheckedServer,
  type Server,
  type ServerFilters,
} from '../src/servers/shared';
import { api } from './_lib/api';
import { ColumnMenu } from './_lib/servers/ColumnMenu';
import { ConfirmDialog } from './_lib/ConfirmDialog';
import { serverColumns } from './_lib/servers/columns';
import { Icon } from './_lib/icons';
import { Pager } from './_lib/servers/Pager';
import { defaultVisibility, filtersUrl, loadVisibility, saveVisibility, type Filters } from './_lib/servers/prefs';
import { ServerDialog } from './_lib/servers/ServerDialog';
import { toast } from './_lib/toast';

const STATUS_FILTERS = ['online', 'warning', 'offline', 'maintenance'] as const;
const PAGE_SIZE = SERVER_PAGE_SIZE;

export interface ServerTableProps {
  /** The servers of the page shown first, with the filters and ?page= (or the highlighted row's page) applied on the server. */
  pageRows: Server[];
  /** How many servers match the filters, and the 0-based page pageRows is. */
  total: number;
  pageIndex: number;
  /** Linked documents per server id. */
  docCounts: Record<string, number>;
  filters: Filters;
  /** ?server={id}: the row to highlight. */
  highlightId: string | null;
  /** ?create=server: open the add dialog. */
  openCreate: boolean;
  /** The user's saved timezone (a prop, so the server and the browser format times alike). */
  timeZone: string;
  /** May the user add, edit, delete and check servers (the server decides; viewers and auditors may not)? */
  canWrite: boolean;
}

/**
 * The Infrastructure screen's server table: search, filters, sorting, columns, row actions, add/edit dialog.
 * The page carries only the rows it shows; the whole inventory comes from GET /api/servers (cached by ETag)
 * after hydration, and searching, sorting and paging then happen here.
 */
export default function ServerTable(props: ServerTableProps) {
  const [servers, setServers] = useState<Server[] | null>(null);
  const [filters, setFilters] = useState<Filters>(props.filters);
  const [sorting, setSorting] = useState<SortingState>([]);
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: props.pageIndex, pageSize: PAGE_SIZE });
  const [visibility, setVisibility] = useState<VisibilityState>(defaultVisibility);
  const [dialog, setDialog] = useState<{ server: Server | null } | null>(
    props.openCreate && props.canWrite ? { server: null } : null,
  );
  const [highlight, setHighlight] = useState(props.highlightId);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Server | null>(null);
  const docCounts = props.docCounts;
  const hydrated = useRef(false);
  const loading = useRef<Promise<unknown>>(Promise.resolve());
  const filtersRef = useRef(filters);
  filtersRef.current = filters;

  // biome-ignore lint/correctness/useExhaustiveDependencies: on mount only: load the list, highlight the linked row
  useEffect(() => {
    loading.current = api<Server[]>('GET', '/api/servers').then(setServers, () =>
      toast('Error', 'Failed to refresh server data. Please try again.', 'error'),
    );
    setVisibility(loadVisibility());
    if (props.openCreate) history.replaceState(history.state, '', filtersUrl(filters));
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
      history.replaceState(history.state, '', filtersUrl(filtersRef.current));
    }, 5000);
    return () => {
      clearTimeout(scroll);
      clearTimeout(clear);
    };
  }, []);

  useEffect(() => {
    if (!hydrated.current) {
      hydrated.current = true;
      return;
    }
    const url = new URL(location.href);
    const server = url.searchParams.get('server');
    const extra: Record<string, string> = server ? { server } : {};
    history.replaceState(history.state, '', filtersUrl(filters, extra));
    setPagination((p) => ({ ...p, pageIndex: 0 }));
  }, [filters]);

  /** Changes the whole list once it is here (a change made while it loads waits for it). */
  const updateServers = useCallback(
    (change: (list: Server[]) => Server[]) =>
      void loading.current.then(() => setServers((list) => list && change(list))),
    [],
  );

  const rows = useMemo(
    () => (servers ? servers.filter((s) => matchesServer(s, filters as ServerFilters)) : props.pageRows),
    [servers, filters, props.pageRows],
  );
  const total = servers ? rows.length : props.total;

  const actions = useMemo(
    () => ({
      busyId,
      edit: (s: Server) => setDialog({ server: s }),
      check: async (s: Server) => {
        setBusyId(s.id);
        try {
          const { check, ...updated } = await api<CheckedServer>('POST', `/api/servers/${s.id}/health-check`);
          updateServers((list) => list.map((x) => (x.id === updated.id ? updated : x)));
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
    }),
    [busyId, updateServers, props.canWrite],
  );

  async function deleteServer(s: Server) {
    try {
      await api('DELETE', `/api/servers/${s.id}`);
      updateServers((list) => list.filter((x) => x.id !== s.id));
      toast('Success', 'Server deleted successfully.');
    } catch {
      toast('Error', 'Failed to delete server. Please try again.', 'error');
    }
  }
  const columns = useMemo(
    () => serverColumns(actions, docCounts, props.timeZone),
    [actions, docCounts, props.timeZone],
  );

  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting, columnVisibility: visibility, pagination },
    // Until the whole list is here, the rows are the server's page of them.
    manualPagination: !servers,
    pageCount: servers ? undefined : Math.ceil(props.total / PAGE_SIZE),
    onSortingChange: setSorting,
    onPaginationChange: setPagination,
    autoResetPageIndex: false,
    getPaginationRowModel: getPaginationRowModel(),
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (s) => s.id,
    sortDescFirst: false,
  });

  function changeVisibility(next: VisibilityState) {
    setVisibility(next);
    saveVisibility(next);
  }

  async function refresh() {
    try {
      setServers(await api<Server[]>('GET', '/api/servers'));
      toast('Refreshed', 'Server data has been refreshed.');
    } catch {
      toast('Error', 'Failed to refresh server data. Please try again.', 'error');
    }
  }

  function saved(s: Server, created: boolean) {
    updateServers((list) => sortByServerName(created ? [...list, s] : list.map((x) => (x.id === s.id ? s : x))));
    setDialog(null);
    if (created && firstCheckPending(s)) setTimeout(() => void reload(s.id), PROBE_TIMEOUT_MS + 1000);
  }

  /** Shows a server as stored now (its first check, stored after Add Server answered). */
  async function reload(id: string) {
    try {
      const fresh = await api<Server>('GET', `/api/servers/${id}`);
      updateServers((list) => list.map((x) => (x.id === id ? fresh : x)));
    } catch {
      // Deleted meanwhile, or offline: the next Refresh shows it.
    }
  }

  const set = (k: keyof Filters) => (e: { target: { value: string } }) =>
    setFilters((f) => ({ ...f, [k]: e.target.value }));
  const filtering = !!(filters.q.trim() || filters.environment || filters.status);

  return (
    <div className="server-table" data-loaded={servers ? '' : undefined}>
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
              pageIndex={pagination.pageIndex}
              pageCount={table.getPageCount()}
              total={total}
              pageSize={PAGE_SIZE}
              href={(i) => filtersUrl(filters, i > 0 ? { page: String(i + 1) } : {})}
              onPage={(i) =>
                servers
                  ? setPagination((p) => ({ ...p, pageIndex: i }))
                  : location.assign(filtersUrl(filters, i > 0 ? { page: String(i + 1) } : {}))
              }
            />
          </div>
        )}
      </section>
      {dialog && (
        <ServerDialog
          key={dialog.server?.id ?? 'new'}
          server={dialog.server}
          onClose={() => setDialog(null)}
          onSaved={saved}
        />
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

/** Traffic: the journal as it happens; the first rows from GET /_sandbox/journal, the rest from the stream, drawn a few times a second. */
import { Component } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ControlApiError } from '../control-api.js';
import { useControl, useEvents } from '../hooks.js';
import { journalQuery, NO_FILTER, rowMatches, type TrafficFilter } from '../logic/traffic-filter.js';
import type { JournalEntry, Location, TrafficRow } from '../logic/types.js';
import { ErrorBox, StatusBadge, timeOf } from '../widgets.js';
import { TrafficDetail } from './traffic-detail.js';

/** Rows kept in the page; older ones are a filter (or the journal's own pages) away. */
const KEPT_ROWS = 1000;
/** Rows drawn: a table of thousands of rows is slow to lay out and no one reads it. */
const SHOWN_ROWS = 300;
const FIRST_PAGE = 200;

const rowOf = (entry: JournalEntry): TrafficRow => ({
  id: entry.id,
  time: entry.time,
  direction: entry.direction,
  method: entry.method,
  path: entry.path,
  status: entry.response.status,
  latencyMs: entry.latencyMs,
  ...(entry.locationId === undefined ? {} : { locationId: entry.locationId }),
  ...(entry.orderId === undefined ? {} : { orderId: entry.orderId }),
  requestId: entry.requestId,
  findings: entry.findings.map((found) => found.code),
  ...(entry.fault === undefined ? {} : { fault: entry.fault.rule }),
});

export function TrafficPage({ selected, select }: { selected: string | undefined; select: (id: string | undefined) => void }) {
  const [filter, setFilter] = useState<TrafficFilter>(NO_FILTER);
  const [rows, setRows] = useState<TrafficRow[]>([]);
  const [error, setError] = useState<string | undefined>(undefined);
  const incoming = useRef<TrafficRow[]>([]);
  const flush = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const locations = useControl<Location[]>('/_sandbox/locations');

  useEffect(() => {
    let current = true;
    incoming.current = [];
    api<JournalEntry[]>(`/_sandbox/journal?${journalQuery(filter, FIRST_PAGE)}`)
      .then((entries) => {
        if (!current) return;
        setRows(entries.map(rowOf));
        setError(undefined);
      })
      .catch((problem: unknown) => current && setError(problem instanceof ControlApiError ? problem.messages.join('\n') : String(problem)));
    return () => {
      current = false;
    };
  }, [filter]);

  useEvents(['journal'], (event) => {
    const row = event.data as TrafficRow;
    if (!rowMatches(row, filter)) return;
    incoming.current.push(row);
    if (flush.current !== undefined) return;
    flush.current = setTimeout(() => {
      flush.current = undefined;
      const fresh = incoming.current.reverse();
      incoming.current = [];
      setRows((old) => {
        // A row the first page already holds (an event that raced the fetch) is listed once.
        const known = new Set(old.slice(0, fresh.length + 50).map((kept) => kept.id));
        return [...fresh.filter((row) => !known.has(row.id)), ...old].slice(0, KEPT_ROWS);
      });
    }, 100);
  });
  useEffect(() => () => clearTimeout(flush.current), []);

  const set = (change: Partial<TrafficFilter>) => setFilter((old) => ({ ...old, ...change }));
  return (
    <div class="split">
      <div class="list">
        <form class="filters" onSubmit={(event) => event.preventDefault()}>
          <input aria-label="path contains" placeholder="path contains…" value={filter.path} onInput={(event) => set({ path: event.currentTarget.value })} />
          <input aria-label="status" placeholder="status: 401 or 4xx" size={10} value={filter.status} onInput={(event) => set({ status: event.currentTarget.value })} />
          <select aria-label="location" value={filter.location} onChange={(event) => set({ location: event.currentTarget.value })}>
            <option value="">every location</option>
            {(locations.data ?? []).map((location) => (
              <option value={location.id}>{location.id}</option>
            ))}
          </select>
          <select aria-label="direction" value={filter.direction} onChange={(event) => set({ direction: event.currentTarget.value as TrafficFilter['direction'] })}>
            <option value="">both directions</option>
            <option value="inbound">POS → service</option>
            <option value="outbound">service → POS</option>
          </select>
          <select aria-label="findings" value={filter.findings} onChange={(event) => set({ findings: event.currentTarget.value as TrafficFilter['findings'] })}>
            <option value="">with or without findings</option>
            <option value="true">with findings</option>
            <option value="false">without findings</option>
          </select>
        </form>
        <ErrorBox error={error} />
        <table class="rows" id="traffic">
          <thead>
            <tr>
              <th>time</th>
              <th>dir</th>
              <th>method</th>
              <th>path</th>
              <th>status</th>
              <th>location</th>
              <th>ms</th>
              <th>findings</th>
              <th>fault</th>
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, SHOWN_ROWS).map((row) => (
              <Row key={row.id} row={row} selected={row.id === selected} select={select} />
            ))}
          </tbody>
        </table>
        {rows.length === 0 && error === undefined ? <p class="muted">No traffic yet: send a call to the POS API, or create an order.</p> : null}
        {rows.length > SHOWN_ROWS ? <p class="muted">{rows.length - SHOWN_ROWS} older rows not drawn; narrow the filters to see them.</p> : null}
      </div>
      {selected === undefined ? null : <TrafficDetail id={selected} close={() => select(undefined)} />}
    </div>
  );
}

/** Drawn again only when its row or selection changes, so new rows do not redraw the 300 already there. */
class Row extends Component<{ row: TrafficRow; selected: boolean; select: (id: string) => void }> {
  override shouldComponentUpdate(next: { row: TrafficRow; selected: boolean }): boolean {
    return next.row !== this.props.row || next.selected !== this.props.selected;
  }

  override render() {
    const { row, selected, select } = this.props;
    return (
      <tr data-id={row.id} class={selected ? 'selected' : ''} onClick={() => select(row.id)}>
        <td class="mono">{timeOf(row.time)}</td>
        <td title={row.direction === 'inbound' ? 'POS → service' : 'service → POS'}>{row.direction === 'inbound' ? '→' : '←'}</td>
        <td>{row.method}</td>
        <td class="mono path" title={row.path}>
          {row.path}
        </td>
        <td>
          <StatusBadge status={row.status} />
        </td>
        <td>{row.locationId ?? ''}</td>
        <td class="num">{row.latencyMs}</td>
        <td class="findings" title={row.findings.join(', ')}>
          {row.findings.length === 0 ? '' : <span class="badge warn">{row.findings.length}</span>}
        </td>
        <td>{row.fault ?? ''}</td>
      </tr>
    );
  }
}

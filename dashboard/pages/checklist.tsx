/** Checklist: start a run in driver mode, follow its verdicts as they come, open its report; and the reports written before. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { adminToken, api, authHeaders, ControlApiError } from '../control-api.js';
import { useControl, useEvents } from '../hooks.js';
import type { ChecklistRun, ReportListing } from '../logic/types.js';
import { ErrorBox, Section, StatusBadge } from '../widgets.js';

type Run = ChecklistRun;

const CAPABILITIES = ['refund', 'hub', 'kiosk', 'menu-form-b'];

export function ChecklistPage() {
  const runs = useControl<Run[]>('/_sandbox/checklist/runs');
  const reports = useControl<ReportListing[]>('/_sandbox/reports', ['checklist'], 1000);
  const [live, setLive] = useState<Run | undefined>(undefined);
  const [driver, setDriver] = useState<'reference' | 'url'>('reference');
  // Until edited, the driver follows where the sandbox sends orders already, most likely the same POS.
  const health = useControl<{ delivery?: { posOrderUrl?: string | null } }>('/_sandbox/health');
  const sandboxOrderUrl = health.data?.delivery?.posOrderUrl ?? undefined;
  const [driverUrl, setDriverUrl] = useState<string | undefined>(undefined);
  const [posOrderUrl, setPosOrderUrl] = useState('');
  const [posName, setPosName] = useState('');
  const [posVersion, setPosVersion] = useState('');
  const [capabilities, setCapabilities] = useState<string[]>(['refund', 'hub', 'kiosk']);
  const [bugs, setBugs] = useState('');
  const [windowMs, setWindowMs] = useState('');
  const [only, setOnly] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  useEvents(['checklist'], (event) => {
    const run = event.data as Run;
    setLive((shown) => (shown === undefined || shown.id === run.id ? run : shown));
  });
  const shown = live ?? runs.data?.[0];
  const suggestedDriver = sandboxOrderUrl ? originOf(sandboxOrderUrl) : 'http://127.0.0.1:4200';
  const start = async () => {
    try {
      const items = only.split(',').map((id) => id.trim().toUpperCase()).filter(Boolean);
      const window = { ...(windowMs.trim() === '' ? {} : { windowMs: Number(windowMs) }), ...(items.length === 0 ? {} : { only: items }) };
      const body =
        driver === 'reference'
          ? { referencePos: true, capabilities, bugs: bugs.split(',').map((bug) => bug.trim()).filter(Boolean), ...window }
          : {
              driverUrl: driverUrl ?? suggestedDriver,
              ...(posOrderUrl.trim() === '' ? (sandboxOrderUrl ? {} : { posOrderUrl: `${(driverUrl ?? suggestedDriver).replace(/\/+$/, '')}/order` }) : { posOrderUrl }),
              ...(posName.trim() === '' ? {} : { posName: posName.trim() }),
              ...(posVersion.trim() === '' ? {} : { posVersion: posVersion.trim() }),
              capabilities,
              ...window,
            };
      setLive(await api<Run>('/_sandbox/checklist/runs', { method: 'POST', body }));
      setError(undefined);
    } catch (problem) {
      setError(problem instanceof ControlApiError ? problem.messages.join('\n') : String(problem));
    }
  };
  const toggle = (capability: string) => setCapabilities((old) => (old.includes(capability) ? old.filter((c) => c !== capability) : [...old, capability]));
  return (
    <div class="page">
      <Section title="Run the certification checklist (driver mode)">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void start();
          }}
        >
          <div class="inline">
            <label>
              <input type="radio" name="driver" checked={driver === 'reference'} onChange={() => setDriver('reference')} /> the bundled reference POS
            </label>
            <label>
              <input type="radio" name="driver" checked={driver === 'url'} onChange={() => setDriver('url')} /> a POS test build's driver
            </label>
          </div>
          {driver === 'url' ? (
            <div class="inline">
              <input aria-label="driver URL" id="checklist-driver" size={32} value={driverUrl ?? suggestedDriver} onInput={(event) => setDriverUrl(event.currentTarget.value)} />
              <input
                aria-label="POS order URL"
                id="checklist-order-url"
                size={48}
                placeholder={sandboxOrderUrl ? `POS order URL (blank: the sandbox's, ${sandboxOrderUrl})` : 'POS order URL (blank: <driver URL>/order)'}
                value={posOrderUrl}
                onInput={(event) => setPosOrderUrl(event.currentTarget.value)}
              />
              <input aria-label="POS name" id="checklist-pos-name" size={16} placeholder="POS name (the report's)" value={posName} onInput={(event) => setPosName(event.currentTarget.value)} />
              <input aria-label="POS version" id="checklist-pos-version" size={14} placeholder="POS version" value={posVersion} onInput={(event) => setPosVersion(event.currentTarget.value)} />
            </div>
          ) : (
            <div class="inline">
              <input aria-label="bugs" id="checklist-bugs" size={40} placeholder="bugs to switch on, comma-separated (none: a correct POS)" value={bugs} onInput={(event) => setBugs(event.currentTarget.value)} />
            </div>
          )}
          <div class="inline">
            capabilities:
            {CAPABILITIES.map((capability) => (
              <label>
                <input type="checkbox" checked={capabilities.includes(capability)} onChange={() => toggle(capability)} /> {capability}
              </label>
            ))}
            <input aria-label="only these items" id="checklist-only" size={24} placeholder="only these items (AUTH-01,ORDER-02)" value={only} onInput={(event) => setOnly(event.currentTarget.value)} />
            <label title="how long the steps that inject an error watch for the POS's retries">
              retry window (ms) <input id="checklist-window" type="number" min={0} max={60000} size={6} placeholder="3000" value={windowMs} onInput={(event) => setWindowMs(event.currentTarget.value)} />
            </label>
            <button type="submit" id="start-checklist" disabled={shown?.status === 'running'}>
              Start the run
            </button>
          </div>
        </form>
        <p class="muted" id="checklist-kind-note">
          {driver === 'reference'
            ? 'A run against the bundled reference POS is a demo, never a certification.'
            : 'A certification is a whole run (no items left out) with a POS version, against your own POS; without a version, or with items left out, it is a practice run, and its report says so.'}
        </p>
        <ErrorBox error={error} />
      </Section>
      {shown === undefined ? null : <RunView run={shown} />}
      <Section title="Reports written">
        <ErrorBox error={reports.error} />
        <table class="rows" id="reports">
          <tbody>
            {(reports.data ?? []).map((report) => (
              <tr>
                <td class="mono">{report.startedAt.slice(0, 19).replace('T', ' ')}</td>
                <td>
                  <span class={`badge ${report.verdict === 'passed' ? 'ok' : report.verdict === 'failed' ? 'bad' : 'neutral'}`}>{report.verdict}</span>
                </td>
                <td>
                  <ReportLink href={report.html}>{report.title}</ReportLink>
                </td>
                <td class="muted" title={report.signer === null ? 'written before reports were signed' : `kid ${report.signer.kid}`}>
                  {report.signer === null ? 'unsigned' : report.signer.kind === 'operator' ? `signed: ${report.signer.deployment ?? 'operator'}` : 'self-signed'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {reports.data?.length === 0 ? <p class="muted">No report in the report folder yet.</p> : null}
      </Section>
    </div>
  );
}

function RunView({ run }: { run: Run }) {
  const done = run.items.filter((item) => item.status !== 'pending').length;
  return (
    <Section title={`Run ${run.id}: ${run.status}${run.status === 'running' ? ` (${done} of ${run.items.length} items judged)` : ''}`}>
      <p class="muted">
        driver {run.driver.url ?? '(starting)'}
        {run.driver.referencePos ? ` · the reference POS${run.driver.bugs?.length ? `, bugs ${run.driver.bugs.join(', ')}` : ', no bug'}` : ''} · capabilities {run.capabilities.join(', ') || 'none'}
      </p>
      {run.error === undefined ? null : <ErrorBox error={run.error} />}
      {run.outcome === undefined ? null : (
        <p class={`answer ${run.outcome.verdict === 'passed' ? 'ok' : 'bad'}`} id="checklist-outcome">
          {run.outcome.verdict}: {run.outcome.reason}
          {run.report === undefined ? null : (
            <>
              {' · '}
              <ReportLink href={run.report.html} id="open-report">
                open the report
              </ReportLink>
            </>
          )}
        </p>
      )}
      <table class="rows" id="checklist-items">
        <tbody>
          {run.items.map((item) => (
            <tr data-id={item.id} class={`item ${item.status}`}>
              <td class="mono">{item.id}</td>
              <td>
                <StatusBadge status={item.status === 'pass' ? 'pass' : item.status === 'fail' || item.status === 'blocked' || item.status === 'error' ? 'fail' : item.status} />
              </td>
              <td class="wrap">
                {item.title} <span class="section">{item.section}</span>
                {item.message === undefined || item.status === 'pass' ? null : <div class="muted">{item.message}</div>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

/** Behind --admin-token a plain link cannot carry the token, so the page fetches the report and opens what it got. */
function ReportLink({ href, id, children }: { href: string; id?: string; children: ComponentChildren }) {
  const open = async (event: MouseEvent) => {
    if (adminToken() === null) return;
    event.preventDefault();
    const response = await fetch(href, { headers: authHeaders() });
    const blob = new Blob([await response.text()], { type: 'text/html' });
    window.open(URL.createObjectURL(blob), '_blank', 'noopener');
  };
  return (
    <a href={href} target="_blank" rel="noopener" id={id} onClick={open}>
      {children}
    </a>
  );
}

/** The origin of a URL the sandbox holds (scheme, host, port); the URL itself when it does not parse. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

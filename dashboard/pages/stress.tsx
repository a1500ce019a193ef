/** Stress: the runs told to this sandbox, and one of them live: counts, failures shrunk, the last orders, a rush's decision times. */
import { useControl } from '../hooks.js';
import type { StressRun } from '../logic/types.js';
import { ErrorBox, Section, StatusBadge, timeOf } from '../widgets.js';

export function StressPage({ selected, select }: { selected: string | undefined; select: (id: string) => void }) {
  const runs = useControl<StressRun[]>('/_sandbox/stress-runs', ['stress'], 300);
  const id = selected ?? runs.data?.[0]?.id;
  const run = useControl<StressRun>(id === undefined ? undefined : `/_sandbox/stress-runs/${encodeURIComponent(id)}`, ['stress'], 300);
  return (
    <div class="page">
      <Section title="Stress runs, newest first">
        <ErrorBox error={runs.error} />
        {runs.data?.length === 0 ? (
          <p class="muted">
            No stress run yet: <code>npx pos-sandbox stress</code> hunts for the orders that break your POS, <code>--rush</code> sends a lunch rush; each shows here as it goes.
          </p>
        ) : (
          <table class="rows" id="stress-runs">
            <thead>
              <tr>
                <th>run</th>
                <th>began</th>
                <th>mode</th>
                <th>seed</th>
                <th>state</th>
                <th>orders</th>
                <th>failures</th>
              </tr>
            </thead>
            <tbody>
              {(runs.data ?? []).map((one) => (
                <tr data-id={one.id} class={one.id === id ? 'selected' : ''} onClick={() => select(one.id)}>
                  <td class="mono">{one.id}</td>
                  <td class="mono">{timeOf(one.startedAt)}</td>
                  <td>{one.mode}</td>
                  <td class="mono">{one.seed}</td>
                  <td>{one.state}</td>
                  <td>
                    {one.sent} of {one.planned}
                  </td>
                  <td>{one.mode === 'rush' ? (one.rush ? one.rush.missed + one.rush.failed : '') : one.findings.length}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      {run.data === undefined ? <ErrorBox error={run.error} /> : <RunView run={run.data} />}
    </div>
  );
}

function RunView({ run }: { run: StressRun }) {
  const share = run.planned === 0 ? 0 : Math.min(1, run.sent / run.planned);
  return (
    <div id="stress-run" data-id={run.id} data-state={run.state}>
      <Section title={`${run.id}: ${run.mode === 'rush' ? 'the lunch rush' : 'the hunt'}, seed ${run.seed}`}>
        <p>
          <b id="stress-state">{run.state}</b> · <span id="stress-counts">{run.sent} of {run.planned} orders sent, {run.passed} passed</span>
          {run.shrinkSends > 0 ? ` · ${run.shrinkSends} more sent while shrinking` : ''}
        </p>
        <progress max={1} value={share} />
        {run.verdict === undefined ? null : (
          <p id="stress-verdict">
            <b>{run.verdict}</b>
          </p>
        )}
        {run.reportDir === undefined ? null : (
          <p class="muted">
            report: <code>{run.reportDir}</code> (stress.html, stress.md, stress.json, junit.xml)
          </p>
        )}
        {run.rush === undefined ? null : (
          <p id="stress-rush">
            decision times: p50 {run.rush.p50} ms, p99 {run.rush.p99} ms, slowest {run.rush.slowest} ms · {run.rush.missed} missed the deadline, {run.rush.failed} failed otherwise
          </p>
        )}
      </Section>
      {run.findings.length === 0 ? null : (
        <Section title="Failures found, each shrunk to its smallest order">
          <table class="rows" id="stress-findings">
            <thead>
              <tr>
                <th>kind</th>
                <th>what</th>
                <th>smallest order</th>
                <th>send it again</th>
              </tr>
            </thead>
            <tbody>
              {run.findings.map((finding) => (
                <tr>
                  <td>
                    <StatusBadge status={finding.kind} />
                  </td>
                  <td class="wrap">{finding.message}</td>
                  <td>{finding.items} item(s)</td>
                  <td class="mono wrap">{finding.file === undefined ? 'saved when the run ends' : `pos-sandbox orders replay ${finding.file}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Section>
      )}
      <Section title={`The last ${run.recent.length} orders sent`}>
        <table class="rows" id="stress-recent">
          <thead>
            <tr>
              <th>order</th>
              <th>location</th>
              <th>verdict</th>
              <th>decided in</th>
            </tr>
          </thead>
          <tbody>
            {[...run.recent].reverse().map((order) => (
              <tr data-id={order.orderId}>
                <td class="mono">{order.orderId}</td>
                <td>{order.locationId}</td>
                <td>
                  <StatusBadge status={order.ok ? 'pass' : 'fail'} /> {order.kind ?? ''}
                  {order.shrinking ? <span class="muted"> (shrinking)</span> : null}
                </td>
                <td>{order.decidedMs} ms</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
    </div>
  );
}

/** One journal entry opened: headers, bodies, findings (each with its §), the token checked rule by rule, copy as curl. */
import { useState } from 'preact/hooks';
import { api, ControlApiError } from '../control-api.js';
import { useControl } from '../hooks.js';
import { curlCommand } from '../logic/curl-command.js';
import { tokenChecks } from '../logic/token-checks.js';
import type { JournalEntry } from '../logic/types.js';
import { ErrorBox, FindingsList, Json, Section, StatusBadge, Verdict } from '../widgets.js';

export function TrafficDetail({ id, close }: { id: string; close: () => void }) {
  const { data: entry, error } = useControl<JournalEntry>(`/_sandbox/journal/${encodeURIComponent(id)}`);
  return (
    <aside class="detail" aria-label="request detail">
      <button type="button" class="close" onClick={close} aria-label="close">
        ×
      </button>
      <ErrorBox error={error} />
      {entry === undefined ? null : <EntryDetail entry={entry} />}
    </aside>
  );
}

function EntryDetail({ entry }: { entry: JournalEntry }) {
  const checks = tokenChecks(entry);
  return (
    <div>
      <h2 class="mono">
        {entry.method} {entry.url ?? entry.path} <StatusBadge status={entry.response.status} />
      </h2>
      <p class="muted">
        {entry.id} · {entry.time} · {entry.latencyMs} ms · {entry.direction === 'inbound' ? 'POS → service' : 'service → POS'}
        {entry.locationId === undefined ? '' : ` · ${entry.locationId}`}
        {entry.orderId === undefined ? '' : ` · order ${entry.orderId}`}
        {entry.delivery === undefined ? '' : ` · dispatch ${entry.delivery.dispatch}, try ${entry.delivery.attempt} of ${entry.delivery.of}: ${entry.delivery.verdict}`}
      </p>
      {entry.fault === undefined ? null : (
        <p class="fault">
          Fault <b>{entry.fault.rule}</b> ({entry.fault.kind}, from {entry.fault.source}) acted on this {entry.direction === 'inbound' ? 'call' : 'delivery'}
          {entry.fault.description === undefined ? '' : `: ${entry.fault.description}`}
        </p>
      )}
      <Section title={`Findings (${entry.findings.length})`}>
        <FindingsList findings={entry.findings} />
      </Section>
      {checks === undefined ? null : (
        <Section title="Token (§5)">
          <table class="checks" id="token-checks">
            <tbody>
              {checks.map((check) => (
                <tr class={check.verdict}>
                  <td>
                    <Verdict verdict={check.verdict} />
                  </td>
                  <td class="mono">{check.rule}</td>
                  <td>{check.details.join(' · ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {entry.token?.header === undefined ? null : (
            <div class="columns">
              <Json value={entry.token.header} />
              <Json value={entry.token.claims} />
            </div>
          )}
        </Section>
      )}
      <Section title="Request">
        <Headers headers={entry.request.headers} />
        <Json value={entry.request.body ?? entry.request.bodyText} />
      </Section>
      <Section title="Response">
        {entry.response.error === undefined ? null : <p class="fault">{entry.response.error}</p>}
        <Headers headers={entry.response.headers} />
        <Json value={entry.response.body} />
      </Section>
      {entry.direction === 'inbound' ? <CopyAsCurl entry={entry} /> : null}
    </div>
  );
}

function Headers({ headers }: { headers: Record<string, string> }) {
  return (
    <table class="headers">
      <tbody>
        {Object.entries(headers).map(([name, value]) => (
          <tr>
            <td class="mono">{name}</td>
            <td class="mono">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A curl of the same call with a token minted now for its location: the journal never keeps the one it had. */
function CopyAsCurl({ entry }: { entry: JournalEntry }) {
  const [command, setCommand] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const copy = async () => {
    try {
      const sub = entry.token?.claims?.sub;
      const locationId = entry.locationId ?? (typeof sub === 'string' ? sub : undefined);
      const token = locationId === undefined ? undefined : (await api<{ token: string }>('/_sandbox/tokens', { method: 'POST', body: { locationId, ttl: 600 } })).token;
      const text = curlCommand(entry, location.origin, token);
      setCommand(text);
      setProblem(undefined);
      await navigator.clipboard?.writeText(text).catch(() => undefined);
    } catch (error) {
      setProblem(error instanceof ControlApiError ? error.messages.join('\n') : String(error));
    }
  };
  return (
    <Section title="Send it again">
      <button type="button" id="copy-curl" onClick={copy}>
        Copy as curl (with a fresh token)
      </button>
      <ErrorBox error={problem} />
      {entry.request.bodyBytes > 16 * 1024 ? <p class="fault">The journal kept the first 16 KiB of this body only: the curl sends that part.</p> : null}
      {command === undefined ? null : <pre class="json" id="curl">{command}</pre>}
    </Section>
  );
}

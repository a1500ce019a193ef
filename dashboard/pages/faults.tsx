/** Faults: the rules in force with their counters (kept fresh as traffic flows), add one, remove one or all, reset. */
import { useState } from 'preact/hooks';
import { api } from '../control-api.js';
import { useAction, useControl } from '../hooks.js';
import type { FaultRule, ReadyScript } from '../logic/types.js';
import { ErrorBox, Section } from '../widgets.js';

const EXAMPLE = JSON.stringify(
  { id: 'refund-503', description: 'The next 3 refunds answer 503', match: { direction: 'inbound', path: '/order/refund' }, action: { kind: 'status', status: 503 }, times: 3 },
  null,
  2,
);

export function FaultsPage() {
  const rules = useControl<FaultRule[]>('/_sandbox/faults', ['journal'], 300);
  const [text, setText] = useState(EXAMPLE);
  const scripts = useControl<ReadyScript[]>('/_sandbox/fault-scripts');
  const { error, act } = useAction(rules.reload);
  const add = () =>
    act(async () => {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (problem) {
        throw new Error(`the rule is not JSON: ${(problem as Error).message}`, { cause: problem });
      }
      await api('/_sandbox/faults', { method: 'POST', body });
    });
  return (
    <div class="page">
      <Section title="Rules in force">
        <ErrorBox error={rules.error} />
        <table class="rows" id="faults">
          <thead>
            <tr>
              <th>id</th>
              <th>does</th>
              <th>matches</th>
              <th title="calls the rule looked at">seen</th>
              <th title="times it acted">fired</th>
              <th title="times it will still act">left</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {(rules.data ?? []).map((rule) => (
              <tr data-id={rule.id}>
                <td class="mono">{rule.id}</td>
                <td class="wrap">
                  {rule.description ?? ''}
                  <div class="mono muted">{JSON.stringify(rule.action)}</div>
                </td>
                <td class="mono wrap">{JSON.stringify(rule.match ?? {})}</td>
                <td class="num seen">{rule.seen}</td>
                <td class="num fired">{rule.fired}</td>
                <td class="num left">{rule.left ?? '∞'}</td>
                <td>
                  <button type="button" onClick={() => act(() => api(`/_sandbox/faults/${encodeURIComponent(rule.id)}`, { method: 'DELETE' }))}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {rules.data?.length === 0 ? <p class="muted">No fault rule in force: the sandbox answers as the service would.</p> : null}
        <div class="inline">
          <button type="button" onClick={() => act(() => api('/_sandbox/faults', { method: 'DELETE' }))}>
            Remove all rules
          </button>
          <button
            type="button"
            class="danger"
            onClick={() => window.confirm('Reset the sandbox? Fixtures come back; refunds, the journal and the seen jtis are cleared.') && act(() => api('/_sandbox/reset', { method: 'POST' }))}
          >
            Reset the sandbox
          </button>
        </div>
      </Section>
      <Section title="Add a rule (or a list of rules), as in docs/faults.md">
        <div class="inline">
          <select
            aria-label="ready script"
            id="fault-script"
            onChange={(event) => {
              const script = scripts.data?.find((candidate) => candidate.name === event.currentTarget.value);
              if (script) setText(JSON.stringify(script.rules, null, 2));
            }}
          >
            <option value="">a ready script of fixtures/faults/ …</option>
            {(scripts.data ?? []).map((script) => (
              <option value={script.name}>{script.name}</option>
            ))}
          </select>
          <span class="muted">fills the form; edit it, then Add</span>
        </div>
        <textarea id="fault-input" rows={10} class="mono" value={text} onInput={(event) => setText(event.currentTarget.value)} />
        <button type="button" id="add-fault" onClick={add}>
          Add
        </button>
        <ErrorBox error={error} />
      </Section>
    </div>
  );
}

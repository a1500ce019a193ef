/** Token debugger: paste a JWT, see what the POS API would answer and why, rule by rule (§5); mint a valid one. */
import { useState } from 'preact/hooks';
import { api } from '../control-api.js';
import { useAction, useControl } from '../hooks.js';
import type { Location, TokenExplanation } from '../logic/types.js';
import { ErrorBox, FindingsList, Json, Section, Verdict } from '../widgets.js';

type Explanation = TokenExplanation;

export function TokenPage() {
  const [token, setToken] = useState('');
  const [explanation, setExplanation] = useState<Explanation | undefined>(undefined);
  const [locationId, setLocationId] = useState('');
  const [ttl, setTtl] = useState('600');
  const locations = useControl<Location[]>('/_sandbox/locations');
  const chosen = locationId || locations.data?.[0]?.id || '';
  const { error, act: run } = useAction();
  const check = (value: string) => run(async () => setExplanation(await api<Explanation>('/_sandbox/tokens/check', { method: 'POST', body: { token: value } })));
  const mint = () =>
    run(async () => {
      const minted = await api<{ token: string }>('/_sandbox/tokens', { method: 'POST', body: { locationId: chosen, ttl: Number(ttl) } });
      setToken(minted.token);
      await check(minted.token);
    });
  return (
    <div class="page">
      <Section title="Check a token">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void check(token);
          }}
        >
          <textarea id="token-input" rows={4} placeholder="Paste a JWT, or a whole 'Bearer …' header value" value={token} onInput={(event) => setToken(event.currentTarget.value)} />
          <button type="submit" id="check-token">
            Check
          </button>
        </form>
      </Section>
      <ErrorBox error={error} />
      {explanation === undefined ? null : <ExplanationView explanation={explanation} />}
      <Section title="Mint a valid token">
        <form
          class="inline"
          onSubmit={(event) => {
            event.preventDefault();
            void mint();
          }}
        >
          <select aria-label="location" value={chosen} onChange={(event) => setLocationId(event.currentTarget.value)}>
            {(locations.data ?? []).map((location) => (
              <option value={location.id}>{location.id}</option>
            ))}
          </select>
          <label>
            ttl (s) <input type="number" min={1} max={86400} value={ttl} onInput={(event) => setTtl(event.currentTarget.value)} size={6} />
          </label>
          <button type="submit">Mint</button>
        </form>
      </Section>
    </div>
  );
}

function ExplanationView({ explanation }: { explanation: Explanation }) {
  const { answer } = explanation;
  return (
    <div id="token-explanation">
      {answer.authenticated ? (
        <p class="answer ok">The POS API authenticates a call carrying this token{explanation.findings.length > 0 ? ', with the findings below' : ''}.</p>
      ) : (
        <div class="answer bad">
          <p>The POS API answers 401:</p>
          <Json value={answer.body} />
        </div>
      )}
      <Section title="Rule by rule (§5)">
        <table class="checks" id="token-rules">
          <tbody>
            {explanation.rules.map((rule) => (
              <tr class={rule.verdict} data-rule={rule.rule}>
                <td>
                  <Verdict verdict={rule.verdict} />
                </td>
                <td class="mono">{rule.rule}</td>
                <td>
                  <div>{rule.details.join(' · ')}</div>
                  <div class="muted">{rule.asks}</div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      {explanation.findings.length === 0 ? null : (
        <Section title="Findings">
          <FindingsList findings={explanation.findings} />
        </Section>
      )}
      <div class="columns">
        <Section title="Header">
          <Json value={explanation.header} />
        </Section>
        <Section title="Claims">
          <Json value={explanation.claims} />
        </Section>
      </div>
    </div>
  );
}

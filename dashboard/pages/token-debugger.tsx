/** Token debugger: paste a JWT, see what the POS API would answer and why, rule by rule (§5); mint a valid one. */
import { useState } from 'preact/hooks';
import { api, ControlApiError } from '../control-api.js';
import { useControl } from '../hooks.js';
import type { Finding, Location } from '../logic/types.js';
import { ErrorBox, Json, Section, Verdict } from '../widgets.js';

interface Explanation {
  answer: { authenticated: true } | { authenticated: false; status: 401; body: { errors: Array<{ code: string; message: string }> } };
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
  rules: Array<{ rule: string; asks: string; verdict: 'pass' | 'fail' | 'not-judged'; details: string[] }>;
  findings: Finding[];
}

export function TokenPage() {
  const [token, setToken] = useState('');
  const [explanation, setExplanation] = useState<Explanation | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [locationId, setLocationId] = useState('');
  const [ttl, setTtl] = useState('600');
  const locations = useControl<Location[]>('/_sandbox/locations');
  const chosen = locationId || locations.data?.[0]?.id || '';
  const run = async (action: () => Promise<void>) => {
    try {
      await action();
      setError(undefined);
    } catch (problem) {
      setError(problem instanceof ControlApiError ? problem.messages.join('\n') : String(problem));
    }
  };
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
          <ul class="findings-list">
            {explanation.findings.map((found) => (
              <li>
                <b>{found.code}</b> <span class="section">{found.section}</span>
                <div>{found.message}</div>
              </li>
            ))}
          </ul>
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

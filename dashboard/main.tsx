/** One page, its views chosen by the URL's hash, all it shows read from the control API and its stream (docs/dashboard.md). */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { adminToken, isTokenNeeded, onTokenNeeded, setAdminToken } from './control-api.js';
import { onStreamState, type StreamState } from './event-stream.js';
import { useControl } from './hooks.js';
import { ChecklistPage } from './pages/checklist.js';
import { FaultsPage } from './pages/faults.js';
import { MenusPage } from './pages/menus.js';
import { MigrationPage } from './pages/migration.js';
import { OrdersPage } from './pages/orders.js';
import { RefundsPage } from './pages/refunds.js';
import { StressPage } from './pages/stress.js';
import { TokenPage } from './pages/token-debugger.js';
import { TrafficPage } from './pages/traffic.js';

const PAGES = [
  ['traffic', 'Traffic'],
  ['orders', 'Orders'],
  ['refunds', 'Refunds'],
  ['menus', 'Menus'],
  ['faults', 'Faults'],
  ['tokens', 'Token debugger'],
  ['checklist', 'Checklist'],
  ['migration', 'Migration'],
  ['stress', 'Stress'],
] as const;
type PageName = (typeof PAGES)[number][0];

interface Health {
  version: string;
  partner: string;
  store: string;
  strict: boolean;
  delivery: { posOrderUrl: string | null };
}

/** `#/traffic/j-000012` → page traffic, item j-000012. */
function readHash(): { page: PageName; item: string | undefined } {
  const [, page, item] = location.hash.split('/');
  const known = PAGES.find(([name]) => name === page)?.[0];
  return { page: known ?? 'traffic', item: known === undefined || item === undefined || item === '' ? undefined : decodeURIComponent(item) };
}

function App() {
  const [route, setRoute] = useState(readHash());
  const [stream, setStream] = useState<StreamState>('connecting');
  const [, setTokenTick] = useState(0);
  useEffect(() => {
    const changed = () => setRoute(readHash());
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  useEffect(() => onStreamState(setStream), []);
  useEffect(() => onTokenNeeded(() => setTokenTick((n) => n + 1)), []);
  const health = useControl<Health>('/_sandbox/health');
  const go = (page: PageName, item?: string) => {
    location.hash = `#/${page}${item === undefined ? '' : `/${encodeURIComponent(item)}`}`;
  };
  if (isTokenNeeded() && adminToken() === null) return <TokenPrompt />;
  return (
    <div class="app">
      <header>
        <h1>POS Sandbox</h1>
        {health.data === undefined ? null : (
          <p class="banner">
            {health.data.version} · POS <b>{health.data.partner}</b> · {health.data.strict ? 'strict' : 'normal'} mode · state {health.data.store} · orders go to{' '}
            {health.data.delivery.posOrderUrl ?? 'nowhere yet'}
          </p>
        )}
        <span class={`stream ${stream}`} id="stream-state" title="the event stream">
          {stream === 'live' ? '● live' : stream === 'connecting' ? '○ connecting' : '○ reconnecting'}
        </span>
      </header>
      <nav>
        {PAGES.map(([name, label]) => (
          <a href={`#/${name}`} class={route.page === name ? 'active' : ''} data-page={name}>
            {label}
          </a>
        ))}
      </nav>
      <main>
        {route.page === 'traffic' ? <TrafficPage selected={route.item} select={(id) => go('traffic', id)} /> : null}
        {route.page === 'orders' ? <OrdersPage /> : null}
        {route.page === 'refunds' ? <RefundsPage /> : null}
        {route.page === 'menus' ? <MenusPage /> : null}
        {route.page === 'faults' ? <FaultsPage /> : null}
        {route.page === 'tokens' ? <TokenPage /> : null}
        {route.page === 'checklist' ? <ChecklistPage /> : null}
        {route.page === 'migration' ? <MigrationPage /> : null}
        {route.page === 'stress' ? <StressPage selected={route.item} select={(id) => go('stress', id)} /> : null}
      </main>
    </div>
  );
}

/** The sandbox was started with --admin-token: the page needs it for every call, and keeps it for this tab only. */
function TokenPrompt() {
  const [value, setValue] = useState('');
  return (
    <form
      class="token-prompt"
      onSubmit={(event) => {
        event.preventDefault();
        setAdminToken(value.trim());
        location.reload();
      }}
    >
      <h1>POS Sandbox</h1>
      <p>This sandbox was started with --admin-token: enter it to use the dashboard. It is kept for this browser tab only.</p>
      <input type="password" id="admin-token" autocomplete="off" value={value} onInput={(event) => setValue(event.currentTarget.value)} />
      <button type="submit">Open the dashboard</button>
    </form>
  );
}

const root = document.getElementById('app')!;
// Preact draws beside what is there: the page's "Loading…" goes first.
root.replaceChildren();
render(<App />, root);

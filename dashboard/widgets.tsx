/** Small pieces every page uses. */
import type { ComponentChildren } from 'preact';
import type { Finding } from './logic/types.js';

export function ErrorBox({ error }: { error: string | undefined }) {
  if (error === undefined) return null;
  return (
    <div class="error" role="alert">
      {error.split('\n').map((line) => (
        <p>{line}</p>
      ))}
    </div>
  );
}

export function Json({ value }: { value: unknown }) {
  if (value === undefined) return <p class="muted">none</p>;
  return <pre class="json">{typeof value === 'string' ? value : JSON.stringify(value, null, 2)}</pre>;
}

export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section class="panel">
      <h3>{title}</h3>
      {children}
    </section>
  );
}

export function StatusBadge({ status }: { status: number | string }) {
  const text = String(status);
  const kind = /^2/.test(text) || ['ACCEPTED', 'PROCESSED', 'pass', 'DELIVERED'].includes(text) ? 'ok' : /^[45]/.test(text) || ['REJECTED', 'DELIVERY_FAILED', 'FAILED', 'fail'].includes(text) ? 'bad' : text === '0' ? 'bad' : 'neutral';
  return <span class={`badge ${kind}`}>{text === '0' ? 'no answer' : text}</span>;
}

export function Verdict({ verdict }: { verdict: 'pass' | 'fail' | 'not-judged' }) {
  const mark = verdict === 'pass' ? '✓' : verdict === 'fail' ? '✗' : '–';
  return (
    <span class={`verdict ${verdict}`} title={verdict}>
      {mark}
    </span>
  );
}

export const timeOf = (iso: string): string => iso.slice(11, 23);

/** Findings, each with its code, its § and what to fix. */
export function FindingsList({ findings }: { findings: readonly Finding[] }) {
  if (findings.length === 0) return <p class="muted">none</p>;
  return (
    <ul class="findings-list">
      {findings.map((found) => (
        <li>
          <b>{found.code}</b> <span class="section">{found.section}</span>
          <div>{found.message}</div>
        </li>
      ))}
    </ul>
  );
}

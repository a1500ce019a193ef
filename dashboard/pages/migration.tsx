/** Migration: the seven steps of §9 as GET /_sandbox/migration builds them, each v1 call linked to its Traffic entry. */
import { useControl } from '../hooks.js';
import type { MigrationReport } from '../logic/types.js';
import { ErrorBox, Section } from '../widgets.js';

const BADGE = { done: 'ok', 'in progress': 'bad', 'not yet exercised': 'neutral' } as const;

export function MigrationPage() {
  // Read again as the POS's calls come in and as checklist runs finish (step 7 reads the reports).
  const report = useControl<MigrationReport>('/_sandbox/migration', ['journal', 'checklist'], 1000);
  return (
    <div class="page">
      <Section title="Moving from v1: the seven steps of §9">
        <ErrorBox error={report.error} />
        {report.data === undefined ? null : <p class="muted" id="migration-calls">{report.data.calls} call(s) of the POS read from the journal</p>}
        <table class="rows" id="migration">
          <thead>
            <tr>
              <th>step</th>
              <th>state</th>
              <th>v1 calls</th>
              <th>next</th>
            </tr>
          </thead>
          <tbody>
            {(report.data?.steps ?? []).map((step) => (
              <tr data-step={step.number} data-state={step.state}>
                <td>
                  {step.number}. {step.step}
                </td>
                <td>
                  <span class={`badge ${BADGE[step.state]}`}>{step.state}</span>
                </td>
                <td class="mono ids">
                  {step.v1Calls.map((id) => (
                    <>
                      <a href={`#/traffic/${id}`} data-journal-id={id}>
                        {id}
                      </a>{' '}
                    </>
                  ))}
                  {step.v1CallCount > step.v1Calls.length ? <span class="muted">and {step.v1CallCount - step.v1Calls.length} more</span> : null}
                </td>
                <td class="wrap">{step.next}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p class="muted">
          <code>pos-sandbox migration</code> prints the same report; docs/migrating-from-v1.md explains each step.
        </p>
      </Section>
    </div>
  );
}

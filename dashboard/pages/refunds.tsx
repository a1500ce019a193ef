/** Refunds: each with its outcome and reason, newest first; what the POS itself is never told (§1). */
import { useControl } from '../hooks.js';
import type { RefundRecord } from '../logic/types.js';
import { ErrorBox, Section, StatusBadge, timeOf } from '../widgets.js';

export function RefundsPage() {
  const refunds = useControl<RefundRecord[]>('/_sandbox/refunds?limit=500', ['refund'], 300);
  return (
    <div class="page">
      <Section title="Refunds, newest first">
        <ErrorBox error={refunds.error} />
        <table class="rows" id="refunds">
          <thead>
            <tr>
              <th>accepted</th>
              <th>ExternalId</th>
              <th>location</th>
              <th>outcome</th>
              <th>reason</th>
              <th>request</th>
            </tr>
          </thead>
          <tbody>
            {(refunds.data ?? []).map((refund) => (
              <tr data-id={refund.id}>
                <td class="mono">{timeOf(refund.acceptedAt)}</td>
                <td class="mono">{refund.externalId}</td>
                <td>{refund.locationId}</td>
                <td>
                  <StatusBadge status={refund.status} />
                </td>
                <td class="wrap">
                  {refund.reason ?? ''}
                  {refund.detail === undefined ? '' : <div class="muted">{refund.detail}</div>}
                </td>
                <td>
                  <a href={`#/traffic/${refund.journalId}`}>{refund.journalId}</a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {refunds.data?.length === 0 ? <p class="muted">No refund yet: POST /v2/order/refund from the POS.</p> : null}
      </Section>
    </div>
  );
}

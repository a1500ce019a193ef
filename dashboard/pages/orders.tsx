/** Orders: create one from a template at a location, watch it travel (every state, every delivery try), resend. */
import { useState } from 'preact/hooks';
import { api } from '../control-api.js';
import { useAction, useControl } from '../hooks.js';
import type { Location, OrderRecord } from '../logic/types.js';
import { ErrorBox, Section, StatusBadge, timeOf } from '../widgets.js';

const TEMPLATES: Array<{ template: string; kind: Location['kind']; label: string }> = [
  { template: 'standard', kind: 'standard', label: 'standard' },
  { template: 'hub', kind: 'hub', label: 'Hub (a brand location)' },
  { template: 'kiosk', kind: 'kiosk', label: 'Kiosk' },
];
const RESENDABLE = new Set(['REJECTED', 'DELIVERY_FAILED']);

export function OrdersPage() {
  const orders = useControl<OrderRecord[]>('/_sandbox/orders?limit=1000', ['order'], 250);
  const locations = useControl<Location[]>('/_sandbox/locations');
  const [template, setTemplate] = useState('standard');
  const [locationId, setLocationId] = useState('');
  const [open, setOpen] = useState<string | undefined>(undefined);
  const kind = TEMPLATES.find((t) => t.template === template)?.kind;
  const fitting = (locations.data ?? []).filter((location) => location.kind === kind);
  const { error, act } = useAction(orders.reload);
  const chosen = fitting.some((location) => location.id === locationId) ? locationId : fitting[0]?.id;
  const create = () =>
    act(async () => {
      const order = await api<OrderRecord>('/_sandbox/orders', { method: 'POST', body: { template, ...(chosen === undefined ? {} : { locationId: chosen }) } });
      setOpen(order.OrderId);
    });
  const newestFirst = [...(orders.data ?? [])].reverse();
  return (
    <div class="page">
      <Section title="Send an order to the POS">
        <form
          class="inline"
          onSubmit={(event) => {
            event.preventDefault();
            void create();
          }}
        >
          <select aria-label="template" id="order-template" value={template} onChange={(event) => setTemplate(event.currentTarget.value)}>
            {TEMPLATES.map((t) => (
              <option value={t.template}>{t.label}</option>
            ))}
          </select>
          <select aria-label="location" id="order-location" value={chosen ?? ''} onChange={(event) => setLocationId(event.currentTarget.value)}>
            {fitting.map((location) => (
              <option value={location.id}>
                {location.id} ({location.name})
              </option>
            ))}
          </select>
          <button type="submit" id="create-order">
            Create and deliver
          </button>
        </form>
        <ErrorBox error={error} />
      </Section>
      <Section title="Orders, newest first">
        <ErrorBox error={orders.error} />
        <table class="rows" id="orders">
          <thead>
            <tr>
              <th>order</th>
              <th>template</th>
              <th>location</th>
              <th>status</th>
              <th>ExternalId</th>
              <th>tries</th>
              <th>updated</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {newestFirst.map((order) => (
              <>
                <tr data-id={order.OrderId} onClick={() => setOpen(open === order.OrderId ? undefined : order.OrderId)}>
                  <td class="mono">{order.OrderId}</td>
                  <td>{order.Template ?? ''}</td>
                  <td>{order.LocationId}</td>
                  <td class="status">
                    <StatusBadge status={order.Status} />
                  </td>
                  <td class="mono">{order.ExternalId ?? ''}</td>
                  <td class="num">{order.Deliveries?.length ?? 0}</td>
                  <td class="mono">{order.UpdatedAt === undefined ? '' : timeOf(order.UpdatedAt)}</td>
                  <td>
                    {RESENDABLE.has(order.Status) ? (
                      <button
                        type="button"
                        onClick={(event) => {
                          event.stopPropagation();
                          void act(() => api(`/_sandbox/orders/${encodeURIComponent(order.OrderId)}/resend`, { method: 'POST' }));
                        }}
                      >
                        Resend
                      </button>
                    ) : null}
                  </td>
                </tr>
                {open === order.OrderId ? (
                  <tr class="expanded">
                    <td colSpan={8} class="wrap">
                      <OrderTimeline order={order} />
                    </td>
                  </tr>
                ) : null}
              </>
            ))}
          </tbody>
        </table>
      </Section>
    </div>
  );
}

function OrderTimeline({ order }: { order: OrderRecord }) {
  return (
    <div class="columns">
      <div>
        <h4>States</h4>
        <ol class="timeline">
          {(order.History ?? []).map((change) => (
            <li>
              <StatusBadge status={change.status} /> <span class="mono">{timeOf(change.at)}</span> by {change.by}
              {change.reason === undefined ? '' : `: ${change.reason}`}
            </li>
          ))}
        </ol>
      </div>
      <div>
        <h4>Delivery tries</h4>
        <ol class="timeline">
          {(order.Deliveries ?? []).map((attempt) => (
            <li>
              dispatch {attempt.dispatch}, try {attempt.attempt} <span class="mono">{timeOf(attempt.at)}</span>: {attempt.httpStatus === undefined ? 'no answer' : <StatusBadge status={attempt.httpStatus} />}
              {attempt.problem === undefined ? '' : ` ${attempt.problem}`}
              {attempt.fault === undefined ? '' : ` (fault ${attempt.fault})`}
              <a class="journal-link" href={`#/traffic/${attempt.journalId}`}>
                {attempt.journalId}
              </a>
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}

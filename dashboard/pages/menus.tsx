/** Menus: each location's items and prices as they are now, and its last accepted updates as diffs. */
import { useState } from 'preact/hooks';
import { useControl } from '../hooks.js';
import type { JournalEntry, Location } from '../logic/types.js';
import { ErrorBox, Section, timeOf } from '../widgets.js';

interface Menu {
  LocationId: string;
  Currency: string;
  Items: Array<{ Id: string; Name: string; Prices?: Array<{ ServiceType: string; Price: number }> }>;
}

export function MenusPage() {
  const locations = useControl<Location[]>('/_sandbox/locations');
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const locationId = chosen ?? locations.data?.[0]?.id;
  const menu = useControl<Menu>(locationId === undefined ? undefined : `/_sandbox/locations/${encodeURIComponent(locationId)}/menu`, ['menu']);
  const updates = useControl<JournalEntry[]>(
    locationId === undefined ? undefined : `/_sandbox/journal?path=/menu&status=2xx&location=${encodeURIComponent(locationId)}&limit=10`,
    ['menu'],
  );
  return (
    <div class="page">
      <div class="inline">
        {(locations.data ?? []).map((location) => (
          <button type="button" class={location.id === locationId ? 'tab active' : 'tab'} onClick={() => setChosen(location.id)}>
            {location.id}
          </button>
        ))}
      </div>
      <ErrorBox error={menu.error ?? locations.error} />
      {menu.data === undefined ? null : (
        <Section title={`Menu of ${menu.data.LocationId} (${menu.data.Currency})`}>
          <table class="rows" id="menu">
            <thead>
              <tr>
                <th>item</th>
                <th>name</th>
                <th>prices</th>
              </tr>
            </thead>
            <tbody>
              {menu.data.Items.map((item) => (
                <tr>
                  <td class="mono">{item.Id}</td>
                  <td>{item.Name}</td>
                  <td class="mono">
                    {(item.Prices ?? []).map((price) => `${price.ServiceType} ${price.Price}`).join(' · ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Section>
      )}
      <Section title="Last accepted updates">
        {(updates.data ?? []).filter((entry) => entry.menuUpdate !== undefined).length === 0 ? <p class="muted">No menu update accepted for this location yet.</p> : null}
        {(updates.data ?? [])
          .filter((entry) => entry.menuUpdate !== undefined)
          .map((entry) => (
            <div class="diff">
              <p>
                <span class="mono">{timeOf(entry.time)}</span> form {entry.menuUpdate!.form} · <a href={`#/traffic/${entry.id}`}>{entry.id}</a> · {entry.menuUpdate!.changes.length} change(s)
              </p>
              <ul>
                {entry.menuUpdate!.changes.slice(0, 50).map((change) => (
                  <li class="mono">
                    {change.itemId} {change.field === 'Name' ? 'Name' : `Price ${change.serviceType}`}: <del>{String(change.from)}</del> → <ins>{String(change.to)}</ins>
                  </li>
                ))}
              </ul>
            </div>
          ))}
      </Section>
    </div>
  );
}

/** Checklist: start a run, follow it item by item, open its report; and the reports written before. */
export function ChecklistPage() {
  return (
    <div class="page">
      <p class="muted">The checklist runs from the command line for now: npx pos-sandbox checklist --driver URL, or npm run demo.</p>
    </div>
  );
}

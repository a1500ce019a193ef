/** The shapes the dashboard reads from the control API (docs/state-and-control-api.md), as far as it reads them. */

export interface Finding {
  code: string;
  message: string;
  section: string;
}

export interface TokenDefect {
  part: string;
  message: string;
}

/** A journal summary: what a `journal` event carries, and what Traffic lists. */
export interface TrafficRow {
  id: string;
  time: string;
  direction: 'inbound' | 'outbound';
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  locationId?: string;
  orderId?: string;
  requestId: string;
  findings: string[];
  error?: string;
  fault?: string;
}

/** GET /_sandbox/journal/:id */
export interface JournalEntry {
  id: string;
  requestId: string;
  time: string;
  direction: 'inbound' | 'outbound';
  method: string;
  path: string;
  url?: string;
  query: Record<string, string>;
  locationId?: string;
  token?: { header?: Record<string, unknown>; claims?: Record<string, unknown>; sha256: string; unreadable?: string };
  tokenDefects?: TokenDefect[];
  request: { headers: Record<string, string>; body?: unknown; bodyText?: string; bodyBytes: number };
  response: { status: number; headers: Record<string, string>; body?: unknown; error?: string };
  latencyMs: number;
  findings: Finding[];
  menuUpdate?: { form: string; locationId: string; changes: MenuChange[] };
  orderId?: string;
  delivery?: { dispatch: number; attempt: number; of: number; verdict: string; copy?: number };
  fault?: { rule: string; kind: string; source: string; description?: string };
}

export type MenuChange =
  | { itemId: string; field: 'Name'; from: string; to: string }
  | { itemId: string; field: 'Price'; serviceType: string; from: number | null; to: number };

export interface Location {
  id: string;
  kind: 'standard' | 'hub' | 'kiosk';
  name: string;
  currency: string;
  hub?: { id: string; name: string; brand: string };
}

export interface OrderRecord {
  OrderId: string;
  LocationId: string;
  Template?: string;
  Status: string;
  ExternalId?: string;
  UpdatedAt?: string;
  Deliveries?: Array<{ dispatch: number; attempt: number; at: string; journalId: string; httpStatus?: number; problem?: string; externalId?: string; fault?: string }>;
  History?: Array<{ status: string; at: string; by: string; reason?: string; journalId?: string }>;
  Findings?: Finding[];
}

export interface RefundRecord {
  id: string;
  externalId: string;
  locationId: string;
  status: 'PENDING' | 'PROCESSED' | 'FAILED';
  reason?: string;
  detail?: string;
  orderId?: string;
  journalId: string;
  acceptedAt: string;
}

export interface FaultRule {
  id: string;
  description?: string;
  match?: Record<string, unknown>;
  action: Record<string, unknown> & { kind: string };
  times?: number;
  seen: number;
  fired: number;
  left: number | null;
  skipping?: number;
}

/** The dashboard's one way to the sandbox: the control API, the admin token kept for this tab only and sent as a header, never in a URL. */
const TOKEN_KEY = 'pos-sandbox.admin-token';

export class ControlApiError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string[],
  ) {
    super(messages.join('; '));
  }
}

type Listener = () => void;
const tokenListeners = new Set<Listener>();

export const adminToken = (): string | null => sessionStorage.getItem(TOKEN_KEY);

export function setAdminToken(token: string | null): void {
  if (token === null || token === '') sessionStorage.removeItem(TOKEN_KEY);
  else sessionStorage.setItem(TOKEN_KEY, token);
  for (const listener of tokenListeners) listener();
}

/** Called when the control API answers 401: the page then asks for the admin token. */
export function onTokenNeeded(listener: Listener): () => void {
  tokenListeners.add(listener);
  return () => tokenListeners.delete(listener);
}

let tokenNeeded = false;
export const isTokenNeeded = (): boolean => tokenNeeded;

export function authHeaders(): Record<string, string> {
  const token = adminToken();
  return token === null ? {} : { authorization: `Bearer ${token}` };
}

/** A control call; its JSON answer, or a ControlApiError with every message of the error envelope. */
export async function api<T>(path: string, options: { method?: string; body?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...authHeaders() };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method: options.method ?? 'GET', headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  } catch (error) {
    throw new ControlApiError(0, [`the sandbox did not answer (${(error as Error).message}); is it still running?`]);
  }
  const text = await response.text();
  let data: unknown;
  try {
    data = text === '' ? undefined : JSON.parse(text);
  } catch {
    data = text;
  }
  if (response.status === 401) {
    tokenNeeded = true;
    for (const listener of tokenListeners) listener();
  }
  if (!response.ok) {
    const errors = (data as { errors?: Array<{ message?: string }> } | undefined)?.errors;
    throw new ControlApiError(response.status, Array.isArray(errors) ? errors.map((error) => String(error.message)) : [`${response.status} ${text.slice(0, 200)}`]);
  }
  return data as T;
}

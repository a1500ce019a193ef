/**
 * Pure: the reason a request failed, said once. undici's fetch rejects with "fetch failed" and keeps the reason
 * (connection refused, a name that does not resolve, a reset) in `cause`, sometimes one level further down.
 */
export function failureCause(error: unknown): string {
  // Duck-typed, not instanceof: fetch's errors may come from another realm (jest's vm contexts, workers).
  const field = (value: unknown, name: 'cause' | 'errors'): unknown => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined);
  let deepest: unknown = error;
  for (let depth = 0; depth < 5 && field(deepest, 'cause') !== undefined; depth++) deepest = field(deepest, 'cause');
  const errors = field(deepest, 'errors');
  if (Array.isArray(errors) && errors.length > 0) deepest = errors[0];
  const { code, message } = (deepest ?? {}) as { code?: string; message?: string };
  const text = message === undefined || message === '' ? String(deepest) : message;
  // Node's own messages already start with the code ("connect ECONNREFUSED 127.0.0.1:4199").
  return code === undefined || text.includes(code) ? text : `${code}: ${text}`;
}

/** Describes a JSON value for an error message: its JSON type and, when short, the value itself. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  const type = Array.isArray(value) ? 'array' : typeof value;
  // JSON.stringify writes Infinity (a body of 1e999) as null.
  if (typeof value === 'number' && !Number.isFinite(value)) return `number ${value}`;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    // A value too deep or cyclic to print is still described by its type.
    return type;
  }
  return text !== undefined && text.length <= 40 ? `${type} ${text}` : type;
}

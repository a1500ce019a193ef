/** Describes a JSON value for an error message: its JSON type and, when short, the value itself. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const text = JSON.stringify(value);
  return text !== undefined && text.length <= 40 ? `${type} ${text}` : type;
}

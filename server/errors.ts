/** The error catalogue and the two envelope renderers of §2.3. */

/** Every error code the sandbox answers with, and its HTTP status. */
export const ERROR_STATUS = {
  INVALID_PAYLOAD: 400,
  VALIDATION_ERROR: 400,
  INVALID_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  INVALID_STATE: 409,
  ALREADY_EXISTS: 409,
  ENDPOINT_RETIRED: 410,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  EXPECTATION_FAILED: 417,
  TOO_MANY_REQUESTS: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The two envelope families of §2.3: refund and order status write `code`/`message`, menu `Code`/`Message`. */
export type EnvelopeFamily = 'order' | 'menu';

export interface ErrorEnvelope {
  errors: Array<{ code: string; message: string }> | Array<{ Code: string; Message: string }>;
}

/** An error meant for the wire: one code, one message per problem found. */
/** A known failure of a command's start (its configuration, fixtures or stored state): a message and exit code 2, not a stack. */
export class StartupError extends Error {}

export class ApiError extends Error {
  readonly status: number;
  readonly messages: string[];
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    messages: string | string[],
    options: { headers?: Record<string, string> } = {},
  ) {
    const given = Array.isArray(messages) ? messages : [messages];
    // A refusal always says why: an empty list would be a sandbox bug, and the client must still get a reason.
    const list = given.length > 0 ? given : [`${code}: the sandbox refused this request without recording why (a sandbox bug); its log has the request id`];
    super(`${code}: ${list.join('; ')}`);
    this.status = ERROR_STATUS[code];
    this.messages = list;
    this.headers = options.headers ?? {};
  }
}

/** Renders one error entry per message, in the envelope of the endpoint family. */
export function renderEnvelope(family: EnvelopeFamily, code: string, messages: string[]): ErrorEnvelope {
  if (family === 'menu') return { errors: messages.map((message) => ({ Code: code, Message: message })) };
  return { errors: messages.map((message) => ({ code, message })) };
}

/** The envelope family of a path the router may not know (404, 405, 413): menu paths get the menu one. */
export function envelopeFamilyFor(path: string): EnvelopeFamily {
  return /\/menu\/?$/i.test(path) ? 'menu' : 'order';
}

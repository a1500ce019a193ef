/** What Node's HTTP parser refuses before Express sees it gets the JSON envelope too, instead of Node's empty 400 or 431; there is no request for the journal, only bytes. */
import { createServer, IncomingMessage, ServerResponse, type RequestListener, type Server, type ServerOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_STATUS, envelopeFamilyFor, renderEnvelope, type EnvelopeFamily, type ErrorCode, ApiError } from '../errors.js';
import type { RequestHandler } from 'express';

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Payload Too Large', 431: 'Request Header Fields Too Large' };

/** Node's own refusals answered in the envelope: the Host check is left to the app, and a 417 gets a body. */
export function createSandboxServer(app: RequestListener, options: { originFormOnly?: boolean; prototypesOf?: RequestListener } = {}): Server {
  const server = createServer({ requireHostHeader: false, ...madeAsExpressMakesThem(options.prototypesOf ?? app) }, (req, res) => {
    const refuse = (family: EnvelopeFamily, message: string) => {
      const body = JSON.stringify(renderEnvelope(family, 'INVALID_REQUEST', [message]));
      res.writeHead(ERROR_STATUS.INVALID_REQUEST, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
      res.end(body);
    };
    // A hosted sandbox takes paths only: a follower must never be made to send a request to a host the target names.
    if (options.originFormOnly && req.url !== undefined && !isOriginForm(req.url)) return refuse(envelopeFamilyFor(pathPart(req.url)), ORIGIN_FORM_ONLY);
    // A target with no path leaves Express nothing to route, and its final handler would answer HTML.
    if (hasPath(req.url)) return app(req, res);
    refuse('order', 'the request target has no path; send origin-form (/v2/order/refund) or an absolute URL with a path');
  });
  answerParserErrors(server);
  server.on('checkExpectation', (req, res) => {
    const body = JSON.stringify(
      renderEnvelope(envelopeFamilyFor(req.url?.split('?')[0] ?? '/'), 'EXPECTATION_FAILED', [
        `Expect: ${req.headers.expect ?? ''} is not something the sandbox can meet; send Expect: 100-continue or no Expect header`,
      ]),
    );
    res.writeHead(ERROR_STATUS.EXPECTATION_FAILED, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
    res.end(body);
  });
  return server;
}

/** Requests and responses made with the app's prototypes already: Express sets them on every request, and changing an object's prototype costs V8 what it learned about it (docs/performance.md). */
function madeAsExpressMakesThem(app: RequestListener): Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'> {
  const { request, response } = app as unknown as { request?: object; response?: object };
  if (!(request instanceof IncomingMessage) || !(response instanceof ServerResponse)) return {};
  function Request(this: IncomingMessage, ...args: ConstructorParameters<typeof IncomingMessage>): void {
    IncomingMessage.apply(this, args);
  }
  Request.prototype = request;
  function Response(this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>): void {
    ServerResponse.apply(this, args);
  }
  Response.prototype = response;
  return { IncomingMessage: Request as unknown as typeof IncomingMessage, ServerResponse: Response as unknown as typeof ServerResponse };
}

/** Pure: the answer to one parser error, from its code and the first bytes of what was sent. */
export function parserErrorAnswer(error: { code?: string; rawPacket?: Buffer }): { code: ErrorCode; message: string; path: string } {
  const path = /^[A-Z]+ (\S+)/.exec(error.rawPacket?.toString('latin1', 0, 2048) ?? '')?.[1] ?? '/';
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { path, code: 'HEADERS_TOO_LARGE', message: 'the request headers are larger than the 16 KiB the sandbox reads; a §5 token and the §4 headers need under 2 KiB' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { path, code: 'REQUEST_TIMEOUT', message: 'the request was not received whole in time; send the headers and body without pausing' };
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_INVALID_CHARACTER':
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
      return { path, code: 'INVALID_REQUEST', message: 'a header name or value holds a character HTTP does not allow (a control character, NUL or bare line feed); send printable ASCII headers' };
    case 'HPE_INVALID_METHOD':
    case 'HPE_INVALID_URL':
    case 'HPE_INVALID_VERSION':
      return { path, code: 'INVALID_REQUEST', message: 'the request line is not METHOD /path HTTP/1.1; this is not an HTTP request the sandbox can read' };
    default:
      return { path, code: 'INVALID_REQUEST', message: `the request is not valid HTTP (${error.code ?? 'parse error'}); the sandbox cannot read it` };
  }
}

/** The path of any target, for its envelope: an absolute URL's own path when it parses. */
function pathPart(target: string): string {
  try {
    return new URL(target, 'http://sandbox.invalid').pathname;
  } catch {
    return '/';
  }
}

/** Origin-form (`/path`), or an absolute URL that parses and has a path. */
function hasPath(url: string | undefined): boolean {
  if (url === undefined || url === '') return false;
  if (url.startsWith('/')) return true;
  try {
    return new URL(url).pathname.startsWith('/');
  } catch {
    return false;
  }
}

/** Answers every parser error of `server` with the envelope, then closes the connection. */
export function answerParserErrors(server: Server): void {
  server.on('clientError', (error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex) => {
    // A reset or a socket already answered has nobody left to tell.
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { code, message, path } = parserErrorAnswer(error);
    answerRaw(socket, code, message, path);
  });
  // Node closes a CONNECT's connection without a word when nobody listens: the sandbox is no proxy, and says so.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    answerRaw(socket, 'INVALID_REQUEST', `the sandbox is no proxy: CONNECT ${req.url ?? ''} is refused; send the request itself (POST /v2/order/refund)`, '/');
  });
}

/** An envelope written on the socket itself, for a request Express never gets; the connection closes after it. */
function answerRaw(socket: Duplex, code: ErrorCode, message: string, path: string): void {
  const status = ERROR_STATUS[code];
  const body = JSON.stringify(renderEnvelope(envelopeFamilyFor(path.split('?')[0] ?? path), code, [message]));
  socket.end(`HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

/** Pure: only origin-form targets, since a target naming a host (absolute-form, or `//host`) must never choose where a hosted sandbox sends a request on. */

/** The refusal's message (400 INVALID_REQUEST, in the envelope of the path). */
export const ORIGIN_FORM_ONLY =
  'the request target must be a path (origin-form, such as /v2/order/refund): this hosted sandbox does not take an absolute URL or a target starting with //';

/** A path that starts with one slash (and no backslash after it, which some URL parsers read as a second slash). */
export function isOriginForm(target: string): boolean {
  return target.startsWith('/') && target[1] !== '/' && target[1] !== '\\';
}

/** An HTTP/1.1 request must carry Host (RFC 9112 §3.2); Node is told not to refuse it, so the refusal comes here, in the envelope. */

export const requireHostHeader: RequestHandler = (req, _res, next) => {
  if (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && req.headers.host === undefined) {
    throw new ApiError('INVALID_REQUEST', 'an HTTP/1.1 request must carry a Host header (RFC 9112 §3.2); send Host: 127.0.0.1:<port>');
  }
  next();
};

/**
 * Pure: the request targets a hosted sandbox takes. Only origin-form (`/v2/order/refund?x=1`): a sandbox on a network
 * sends requests on to other instances, and a target that names a host of its own (absolute-form
 * `http://10.0.0.1/x`, or `//10.0.0.1/x`, which a URL parser reads as a host) must never be able to choose where.
 */

/** The refusal's message (400 INVALID_REQUEST, in the envelope of the path). */
export const ORIGIN_FORM_ONLY =
  'the request target must be a path (origin-form, such as /v2/order/refund): this hosted sandbox does not take an absolute URL or a target starting with //';

/** A path that starts with one slash (and no backslash after it, which some URL parsers read as a second slash). */
export function isOriginForm(target: string): boolean {
  return target.startsWith('/') && target[1] !== '/' && target[1] !== '\\';
}

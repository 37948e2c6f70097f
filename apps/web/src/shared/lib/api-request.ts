import type { AnyCall, CallAnswer, CallOf, CallRequest, Route } from '@provee/domain';
import { sendRequest, type RequestOptions } from './api-client.js';

/** The path params and query of a call (typed by the call's schemas where `apiRequest` is called). */
type Address = { params?: object; query?: object };

/** A call's URL: its route with the path params filled in (encoded), and its query; absent values left out. */
export function urlOf(route: Route, { params, query }: Address = {}): string {
  const path = route.path.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(String((params as Record<string, unknown>)[name])),
  );
  const search = Object.entries(query ?? {})
    .filter(([, value]) => value != null)
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
    .join('&');
  return search ? `${path}?${search}` : path;
}

/** What a call takes: its params, query and body as its schemas say, and how to send it. */
export type CallOptions<C extends AnyCall> = RequestOptions & CallRequest<C>;
/**
 * The options may be left out when the call needs none. Call by call (distributed over a union of
 * calls): the three parts of every call of the contract crossed with one another would be a union
 * too large for TypeScript (TS2590).
 */
type Arguments<C extends AnyCall> = C extends unknown
  ? object extends CallRequest<C>
    ? [options?: CallOptions<C>]
    : [options: CallOptions<C>]
  : never;

/**
 * The one way a screen calls the API: a route of the contract (`@provee/domain`, zod-free), whose
 * call gives the types of what is sent and answered (`CallOf`: a type only, the schemas stay on
 * the server). Not on the landing: it loads with the first screen that calls.
 */
export function apiRequest<R extends Route>(
  route: R,
  ...[options]: Arguments<CallOf<R>>
): Promise<CallAnswer<CallOf<R>>> {
  return sendRequest(route.method, urlOf(route, options), options);
}

import type { z } from 'zod';
import { errorResponseSchema } from '../errors.js';
import type * as contract from './index.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Where a call goes, in Fastify's style (`/api/v1/users/:id/:type/tax_info`). Zod-free: the web
 * imports these values (one named export per call, `routes/*.ts`), never the schemas.
 */
export interface Route {
  readonly method: Method;
  readonly path: string;
}

/**
 * An answer that is not one JSON value (a CSV, a PDF, an image, TwiML): its media types, each with
 * the schema OpenAPI shows, as the document writes them. Sent as bytes or a stream, no serializer
 * runs for it; the handler sends it itself (`reply.send`).
 */
export interface MediaAnswer {
  readonly description: string;
  readonly content: { readonly [mediaType: string]: { readonly schema: z.ZodType } };
}

/** What a call sends and answers: the request's parts and every status it documents. */
export interface CallSchemas {
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly responses: { readonly [status: number]: z.ZodType | MediaAnswer };
}

/** One call of the API: its route and its schemas, one value the API registers and documents. */
export type Call = Route & CallSchemas;

/** A call from its route (the zod-free value the web uses) and its schemas. */
export function defineCall<const R extends Route, const S extends CallSchemas>(route: R, schemas: S): R & S {
  return { ...route, ...schemas };
}

/** The error statuses a call answers, each with the one envelope: `{ 200: …, ...refusals(401, 409) }`. */
export function refusals<const S extends number>(...statuses: S[]): { [K in S]: typeof errorResponseSchema } {
  return Object.fromEntries(statuses.map((status) => [status, errorResponseSchema])) as {
    [K in S]: typeof errorResponseSchema;
  };
}

type RequestSchemas = Omit<CallSchemas, 'responses'>;
type Answers = CallSchemas['responses'];

/**
 * The calls of an area that share their refusals, and their request parts when `shared` names them (e.g.
 * their path params): each call then names its route, its own request parts and its answers
 * (`const stepCall = callsSharing({ params: userParams }, stepRefusals)`, `stepCall(route, { body }, { 200: … })`).
 */
export function callsSharing<const S extends RequestSchemas, const E extends Answers>(shared: S, errors: E) {
  return <const R extends Route, const Q extends RequestSchemas & { [K in keyof S]?: never }, const A extends Answers>(
    route: R,
    request: Q,
    answers: A,
  ) => defineCall(route, { ...shared, ...request, responses: { ...answers, ...errors } });
}

type Exported = (typeof contract)[keyof typeof contract];
/** Every call value of the contract, as a type: the web finds a route's schemas here without importing them. */
export type AnyCall = Extract<Exported, Call>;
/** The call of a route (by its method and path; a path not known to the letter matches none). */
export type CallOf<R extends Route> = string extends R['path']
  ? never
  : Extract<AnyCall, { method: R['method']; path: R['path'] }>;

type SuccessStatus = 200 | 201 | 202 | 204;
/** What a call answers when it succeeds: the union of its 2xx answers. */
export type CallAnswer<C extends Call> = {
  [S in keyof C['responses'] & SuccessStatus]: C['responses'][S] extends z.ZodType
    ? z.output<C['responses'][S]>
    : never; // a MediaAnswer: bytes the handler sends itself, never a value it returns
}[keyof C['responses'] & SuccessStatus];

/** One part of a request (params, query or body) as the client sends it; optional when all its fields are. */
type Part<C, K extends 'params' | 'query' | 'body'> =
  C extends Record<K, infer S extends z.ZodType>
    ? object extends z.input<S>
      ? { [P in K]?: z.input<S> }
      : { [P in K]: z.input<S> }
    : { [P in K]?: never };
/** What a client passes to make a call: its path params, query and body, typed from the call's schemas. */
export type CallRequest<C extends Call> = Part<C, 'params'> & Part<C, 'query'> & Part<C, 'body'>;

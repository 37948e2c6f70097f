import type { Call, CallAnswer } from '@provee/domain';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteOptions,
  RouteShorthandOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { App } from '../types.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract value the route was registered from (`register`); contract.test.ts walks them. */
    call?: Call;
  }
}

type Part<C, K extends 'params' | 'query' | 'body'> = C extends Record<K, infer S> ? S : undefined;

/** The Fastify schema of a call: what types the request and checks (and documents) every answer. */
type SchemaOf<C extends Call> = {
  params: Part<C, 'params'>;
  querystring: Part<C, 'query'>;
  body: Part<C, 'body'>;
  response: C['responses'];
};

export type CallRequest<C extends Call> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  SchemaOf<C>,
  ZodTypeProvider
>;
export type CallReply<C extends Call> = FastifyReply<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  ContextConfigDefault,
  SchemaOf<C>,
  ZodTypeProvider
>;

/** Returns the call's success answer (a 2xx of its `responses`), or the reply it sent itself. */
export type CallHandler<C extends Call> = (
  request: CallRequest<C>,
  reply: CallReply<C>,
) => Promise<CallAnswer<C> | FastifyReply> | CallAnswer<C> | FastifyReply;

/** What the OpenAPI document says besides the schemas: these stay with the route that serves the call. */
interface Documentation {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  hide?: boolean;
}

/** Everything a route may set but its method, URL and schemas (which come from the call). */
export type CallOptions<C extends Call> = Omit<
  RouteShorthandOptions<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    RouteGenericInterface,
    ContextConfigDefault,
    SchemaOf<C>,
    ZodTypeProvider,
    FastifyBaseLogger
  >,
  'schema'
> &
  Documentation;

/**
 * Registers the route of one contract call: method, URL and schemas (params, query, body and
 * every documented status) come from the value, so the route, its validation, its OpenAPI entry
 * and the web's types cannot drift apart. The call's path is the full one (`/api/v1/...`); the
 * plugin's prefix (`/api`, `/ops`…) is taken off it here.
 */
export function register<C extends Call>(app: App, call: C, options: CallOptions<C>, handler: CallHandler<C>): void {
  const { summary, description, tags, security, hide, config, ...route } = options;
  if (!call.path.startsWith(app.prefix))
    throw new Error(`${call.method} ${call.path} registered under the prefix ${app.prefix}`);
  const schema: FastifySchema & Documentation = { response: call.responses };
  if (call.params) schema.params = call.params;
  if (call.query) schema.querystring = call.query;
  if (call.body) schema.body = call.body;
  Object.assign(schema, definedOnly({ summary, description, tags, security, hide }));
  app.route({
    ...route,
    method: call.method,
    url: call.path.slice(app.prefix.length),
    config: { ...config, call },
    schema,
    handler,
  } as RouteOptions);
}

const definedOnly = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;

/**
 * The options of a route that the caller's bearer token opens: `check` reads the token before the
 * body is parsed, and the OpenAPI entry says the call needs it.
 */
export function bearerRoute<Check>(check: Check, summary: string) {
  return { preParsing: check, summary, security: [{ bearer: [] }] };
}

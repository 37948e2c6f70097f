import type { App } from '../../../src/types.js';

/** The part of JSON Schema the route schemas use (as @fastify/swagger writes them into the OpenAPI document). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  nullable?: boolean;
  default?: unknown;
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
}

export interface Parameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

/** One operation of the product: what it takes, as its schema says. */
export interface Operation {
  /** "POST /api/v1/users/{id}/{type}/nip" */
  id: string;
  method: string;
  path: string;
  pathParams: Parameter[];
  query: Parameter[];
  /** The JSON body's schema; undefined when the route takes none (or takes multipart). */
  body?: JsonSchema;
  /** multipart/form-data instead of JSON. */
  multipart: boolean;
  /** Not in the OpenAPI document (test-mode tools, the document itself): described by the suite. */
  hidden: boolean;
}

interface OpenApiOperation {
  parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  consumes?: string[];
}

/** Every operation of the OpenAPI document. */
export function documentedOperations(document: unknown): Operation[] {
  const { paths } = document as { paths: Record<string, Record<string, OpenApiOperation>> };
  return Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([lower, operation]) => {
      const method = lower.toUpperCase();
      const parameters = operation.parameters ?? [];
      const of = (place: string) =>
        parameters
          .filter((parameter) => parameter.in === place)
          .map((parameter) => ({
            name: parameter.name,
            required: parameter.required === true,
            schema: parameter.schema,
          }));
      const content = operation.requestBody?.content ?? {};
      const multipart = 'multipart/form-data' in content || (operation.consumes ?? []).includes('multipart/form-data');
      return {
        id: `${method} ${path}`,
        method,
        path,
        pathParams: of('path'),
        query: of('query'),
        body: content['application/json']?.schema,
        multipart,
        hidden: false,
      };
    }),
  );
}

/** A route pattern with its parameter names dropped: /api/v1/users/{id}/{type} and /api/v1/users/:id/:type → /api/v1/users/:/: */
export const routeShape = (path: string) => path.replace(/\{[^}]+\}/g, ':').replace(/:[\w-]+(?:\|:[\w-]+)*/g, ':');

/**
 * Every route the app registered, read from Fastify's own route tree (`printRoutes`): the OpenAPI
 * document lists only the routes it documents, so the routes hidden from it would escape otherwise.
 * HEAD (added for every GET) and OPTIONS (CORS preflight) are left out.
 */
export function registeredRoutes(app: App): { method: string; shape: string }[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes: { method: string; shape: string }[] = [];
  for (const line of tree.split('\n')) {
    const at = line.indexOf('── ');
    if (at < 0) continue;
    const depth = (at - 1) / 4;
    const match = /^(\S+)(?: \(([^)]*)\))?/.exec(line.slice(at + 3));
    if (!match || !Number.isInteger(depth)) throw new Error(`cannot read the route tree line ${JSON.stringify(line)}`);
    const path = (depth > 0 ? stack[depth - 1]! : '') + match[1]!;
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of (match[2] ?? '').split(',').map((m) => m.trim())) {
      if (method && method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, shape: routeShape(path) });
    }
  }
  return routes;
}

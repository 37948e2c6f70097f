import * as contract from '@provee/domain';
import type { Call, MediaAnswer } from '@provee/domain';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registeredRoutes } from './plugins/external/openapi.js';
import { createTestApp, type TestApp } from './test/test-app.js';

/**
 * One contract (issues 9, 28): every documented route is registered from a call value of
 * `@provee/domain` (`register`), and the OpenAPI document says what those values say, so a route
 * registered by hand, or one whose schemas drift from the contract, fails here.
 */
type JsonSchema = { properties?: Record<string, unknown>; required?: string[] } & Record<string, unknown>;
const json = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, target: 'openapi-3.0' }) as JsonSchema;
  return rest;
};

const isMediaAnswer = (answer: z.ZodType | MediaAnswer): answer is MediaAnswer => 'content' in answer;
const isCall = (value: unknown): value is Call =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'responses' in value;
/** Every call value the contract exports. */
const calls = new Set(Object.values(contract as Record<string, unknown>).filter(isCall));

const methodsOf = (route: RouteOptions) => (Array.isArray(route.method) ? route.method : [route.method]);
const isDocumented = (route: RouteOptions) =>
  !methodsOf(route).includes('HEAD') && !(route.schema as { hide?: boolean } | undefined)?.hide;

/** The documented routes not registered from a contract value (or registered from another than their own). */
function routesWithoutCall(routes: readonly RouteOptions[], known: ReadonlySet<Call>): string[] {
  return routes.filter(isDocumented).flatMap((route) => {
    const call = route.config?.call;
    const name = `${methodsOf(route).join(',')} ${route.url}`;
    return call && known.has(call) && call.method === route.method && call.path === route.url ? [] : [name];
  });
}

/** The OpenAPI path of a call: Fastify's `:id` becomes `{id}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** The OpenAPI parameters a params/query schema becomes: one per property, in order. */
function parameters(schema: z.ZodType, where: 'path' | 'query') {
  const { properties = {}, required = [] } = json(schema, 'input');
  return Object.entries(properties).map(([name, property]) => ({
    schema: property,
    in: where,
    name,
    required: required.includes(name),
  }));
}

type Operation = Record<string, unknown> & { parameters?: { in: string }[] };

describe('one contract: every route comes from a call value of @provee/domain', () => {
  let t: TestApp;
  let doc: { paths: Record<string, Record<string, Operation>> };
  let routes: readonly RouteOptions[];
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    routes = registeredRoutes(t.app);
  });
  afterAll(() => t.close());

  it('every documented route is registered from a contract value', () => {
    expect(routes.length).toBeGreaterThan(50);
    expect(routesWithoutCall(routes, calls)).toEqual([]);
  });

  it('every call of the contract is served', () => {
    const served = new Set(routes.map((route) => route.config?.call));
    const unserved = [...calls].filter((call) => !served.has(call)).map((call) => `${call.method} ${call.path}`);
    expect(unserved).toEqual([]);
  });

  it('the check bites: a route registered by hand, or from a value that is not the contract, is named', () => {
    const byHand = { method: 'GET', url: '/api/v1/by-hand', schema: {}, handler: () => ({}) } as RouteOptions;
    const copy = { ...contract.sendCodeCall };
    const fromCopy = { method: 'POST', url: copy.path, config: { call: copy }, handler: () => ({}) } as RouteOptions;
    expect(routesWithoutCall([byHand, fromCopy], calls)).toEqual(['GET /api/v1/by-hand', 'POST /api/v1/users/code']);
  });

  describe('the document says what the call values say', () => {
    for (const call of calls) {
      it(`${call.method} ${call.path}`, () => {
        const operation = doc.paths[openApiPath(call.path)]?.[call.method.toLowerCase()];
        expect(operation, 'route documented').toBeDefined();
        const requestBody = operation!.requestBody as { content: Record<string, { schema: unknown }> } | undefined;
        if (call.body) expect(requestBody?.content['application/json']?.schema).toEqual(json(call.body, 'input'));
        else expect(requestBody).toBeUndefined();
        const documented = (where: string) =>
          (operation!.parameters ?? []).filter((parameter) => parameter.in === where);
        expect(documented('path')).toEqual(call.params ? parameters(call.params, 'path') : []);
        expect(documented('query')).toEqual(call.query ? parameters(call.query, 'query') : []);
        const responses = operation!.responses as Record<string, { content?: Record<string, { schema: unknown }> }>;
        expect(Object.keys(responses).sort()).toEqual(Object.keys(call.responses).sort());
        for (const [status, schema] of Object.entries(call.responses)) {
          if (isMediaAnswer(schema)) {
            // Bytes (a CSV, a PDF, an image): each media type documented with its schema.
            const content = responses[status]?.content ?? {};
            expect(Object.keys(content).sort(), `response ${status}`).toEqual(Object.keys(schema.content).sort());
            for (const [type, media] of Object.entries(schema.content))
              expect(content[type]?.schema, `response ${status} ${type}`).toEqual(json(media.schema, 'output'));
            continue;
          }
          const answer = responses[status]?.content?.['application/json']?.schema;
          // An empty answer (204) documents no content.
          if (answer !== undefined || status !== '204')
            expect(answer, `response ${status}`).toEqual(json(schema, 'output'));
        }
      });
    }
  });

  it('the comparison bites: a schema that differs from the route is told apart', () => {
    const body = (doc.paths['/api/v1/users/code']!.put!.requestBody as { content: Record<string, { schema: unknown }> })
      .content['application/json']!.schema;
    expect(body).not.toEqual(json(contract.confirmCodeBody.extend({ code: z.string().regex(/^\d{4}$/) }), 'input'));
    expect(body).not.toEqual(json(contract.sendCodeBody, 'input'));
  });
});

import * as contract from '@provee/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from './test/test-app.js';

/**
 * One contract (issue 9): every call the web app makes is validated with the schemas of
 * `@provee/domain`. The OpenAPI document is generated from the schemas the routes really use,
 * so a route that declares its own schema again (or drifts from the contract) fails here.
 */
type JsonSchema = { properties?: Record<string, unknown>; required?: string[] } & Record<string, unknown>;
const json = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, target: 'openapi-3.0' }) as JsonSchema;
  return rest;
};

type Call = {
  method: 'get' | 'post' | 'put';
  path: string;
  body?: z.ZodType;
  params?: z.ZodType;
  query?: z.ZodType;
  responses: Record<number, z.ZodType>;
};

const user = '/api/v1/users/{id}/{type}';
/** The signing calls put the user type first (SPEC §7). */
const signer = '/api/v1/users/{type}/{id}';
const calls: Record<string, Call[]> = {
  'phone-proof': [
    {
      method: 'post',
      path: '/api/v1/users/code',
      body: contract.sendCodeBody,
      responses: { 200: contract.codeSentResponse },
    },
    {
      method: 'put',
      path: '/api/v1/users/code',
      body: contract.confirmCodeBody,
      responses: { 200: contract.phoneAuthenticationResponse },
    },
    {
      method: 'post',
      path: '/api/v1/users/reverse-otp',
      body: contract.startReverseOtpBody,
      responses: { 200: contract.reverseOtpStartedResponse },
    },
    {
      method: 'put',
      path: '/api/v1/users/reverse-otp',
      body: contract.pollReverseOtpBody,
      responses: { 200: contract.phoneAuthenticationResponse, 202: contract.reverseOtpPendingResponse },
    },
  ],
  users: [
    {
      method: 'get',
      path: '/api/v1/users',
      query: contract.lookupUserQuery,
      responses: { 200: contract.lookupUserResponse },
    },
    { method: 'get', path: user, params: contract.userParams, responses: { 200: contract.userDetailResponse } },
  ],
  registration: [
    {
      method: 'post',
      path: '/api/v2/users',
      body: contract.registerUserBody,
      responses: { 201: contract.createdUserResponse },
    },
    {
      method: 'post',
      path: `${user}/tax_info`,
      params: contract.userParams,
      body: contract.taxInfoBody,
      responses: { 200: contract.stepAnswerSchema },
    },
    {
      method: 'post',
      path: `${user}/businesses/address`,
      params: contract.userParams,
      body: contract.addressBody,
      responses: { 200: contract.stepAnswerSchema },
    },
    {
      method: 'post',
      path: `${user}/businesses`,
      params: contract.userParams,
      body: contract.businessBody,
      responses: { 200: contract.stepAnswerSchema },
    },
    // Going back (issue 27): what was saved, and the corrections.
    {
      method: 'get',
      path: `${user}/registration`,
      params: contract.userParams,
      responses: { 200: contract.savedRegistrationResponse },
    },
    {
      method: 'put',
      path: `${user}/personal-data`,
      params: contract.userParams,
      body: contract.personalDataBody,
      responses: { 200: contract.personalDataAmendedResponse },
    },
    {
      method: 'put',
      path: `${user}/tax_info`,
      params: contract.userParams,
      body: contract.taxInfoBody,
      responses: { 200: contract.stepAnswerSchema },
    },
    {
      method: 'put',
      path: `${user}/businesses/address`,
      params: contract.userParams,
      body: contract.addressBody,
      responses: { 200: contract.stepAnswerSchema },
    },
  ],
  credit: [
    {
      method: 'get',
      path: '/api/v1/consents/text',
      query: contract.consentTextQuery,
      responses: { 200: contract.consentTextResponse },
    },
    { method: 'post', path: `${user}/nip`, params: contract.userParams, responses: { 200: contract.nipSentResponse } },
    {
      method: 'put',
      path: `${user}/nip`,
      params: contract.userParams,
      body: contract.confirmNipBody,
      responses: { 200: contract.confirmNipResponse },
    },
    {
      method: 'get',
      path: `${user}/consents`,
      params: contract.userParams,
      responses: { 200: contract.consentsResponse },
    },
    {
      method: 'put',
      path: `${user}/password`,
      params: contract.userParams,
      body: contract.passwordBody,
      responses: { 200: contract.stepAnswerSchema },
    },
    {
      method: 'post',
      path: `${user}/advisor-events`,
      params: contract.userParams,
      body: contract.advisorEventBody,
      responses: { 201: contract.advisorEventResponse },
    },
  ],
  catalog: [
    { method: 'get', path: '/api/v1/states', responses: { 200: contract.statesResponse } },
    {
      method: 'get',
      path: '/api/v1/states/{id}/cities',
      params: contract.catalogIdParams,
      responses: { 200: contract.stateCitiesResponse },
    },
    { method: 'get', path: '/api/v1/cities', query: contract.citiesQuery, responses: { 200: contract.citiesResponse } },
    {
      method: 'get',
      path: '/api/v1/cities/{id}/neighborhoods',
      params: contract.catalogIdParams,
      responses: { 200: contract.neighborhoodsResponse },
    },
    {
      method: 'get',
      path: '/api/v1/zip-codes/{code}',
      params: contract.zipCodeParams,
      responses: { 200: contract.zipCodeResponse },
    },
    { method: 'get', path: '/api/v1/business-types', responses: { 200: contract.businessTypesResponse } },
    { method: 'get', path: '/api/v1/sales-ranges', responses: { 200: contract.salesRangesResponse } },
    {
      method: 'get',
      path: '/api/v1/addresses/search',
      query: contract.addressSearchQuery,
      responses: { 200: contract.addressSearchResponse },
    },
    {
      method: 'get',
      path: '/api/v1/addresses/{placeId}',
      params: contract.placeParams,
      responses: { 200: contract.placeResponse },
    },
  ],
  guarantors: [
    {
      method: 'post',
      path: `${user}/avals`,
      params: contract.userParams,
      body: contract.registerAvalBody,
      responses: { 200: contract.avalRegisteredResponse },
    },
    {
      method: 'post',
      path: `${user}/aval/nip`,
      params: contract.userParams,
      query: contract.avalNipQuery,
      responses: { 200: contract.avalNipSentResponse },
    },
    {
      method: 'put',
      path: `${user}/aval/nip`,
      params: contract.userParams,
      query: contract.avalNipQuery,
      body: contract.avalNipBody,
      responses: { 200: contract.avalConsentResponse },
    },
    {
      method: 'put',
      path: `${user}/aval/phone-number`,
      params: contract.userParams,
      body: contract.avalPhoneChangeBody,
      responses: { 200: contract.avalPhoneChangedResponse },
    },
    { method: 'get', path: '/api/v1/users/aval/invitation', responses: { 200: contract.avalInvitationResponse } },
    {
      method: 'post',
      path: '/api/v1/users/aval/consent',
      body: contract.avalConsentBody,
      responses: { 200: contract.avalConsentStartedResponse },
    },
    {
      method: 'put',
      path: '/api/v1/users/aval/reverse-otp',
      body: contract.avalReverseOtpBody,
      responses: { 200: contract.avalValidationResponse },
    },
  ],
  leads: [
    {
      method: 'post',
      path: '/ops/v1/lead-assignment',
      body: contract.leadSchema,
      responses: { 200: contract.leadResponse, 201: contract.leadResponse },
    },
  ],
  'client-errors': [{ method: 'post', path: '/api/v1/client-errors', body: contract.clientErrorBody, responses: {} }],
  config: [{ method: 'get', path: '/api/v1/config', responses: { 200: contract.publicConfigSchema } }],
  signing: [
    {
      method: 'get',
      path: `${signer}/mati-status`,
      params: contract.signerParams,
      query: contract.verificationStatusQuery,
      responses: { 200: contract.verificationStatusResponse },
    },
    {
      method: 'get',
      path: `${signer}/identity-photos`,
      params: contract.signerParams,
      responses: { 200: contract.identityPhotosResponse },
    },
    {
      method: 'post',
      path: `${signer}/identity-checks`,
      params: contract.signerParams,
      body: contract.identityCheckBody,
      responses: { 200: contract.identityDocumentsResponse },
    },
  ],
};

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

describe('one contract: the API serves the schemas of @provee/domain', () => {
  let t: TestApp;
  let doc: { paths: Record<string, Record<string, Record<string, unknown> & { parameters?: { in: string }[] }>> };
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  });
  afterAll(() => t.close());

  for (const [area, list] of Object.entries(calls)) {
    describe(area, () => {
      for (const call of list) {
        it(`${call.method.toUpperCase()} ${call.path}`, () => {
          const operation = doc.paths[call.path]?.[call.method];
          expect(operation, 'route documented').toBeDefined();
          const requestBody = operation!.requestBody as { content: Record<string, { schema: unknown }> } | undefined;
          if (call.body) expect(requestBody?.content['application/json']?.schema).toEqual(json(call.body, 'input'));
          else expect(requestBody).toBeUndefined();
          const documented = (where: string) =>
            (operation!.parameters ?? []).filter((parameter) => parameter.in === where);
          expect(documented('path')).toEqual(call.params ? parameters(call.params, 'path') : []);
          expect(documented('query')).toEqual(call.query ? parameters(call.query, 'query') : []);
          const responses = operation!.responses as Record<string, { content?: Record<string, { schema: unknown }> }>;
          for (const [status, schema] of Object.entries(call.responses)) {
            expect(responses[status]?.content?.['application/json']?.schema, `response ${status}`).toEqual(
              json(schema, 'output'),
            );
          }
        });
      }
    });
  }

  it('the comparison bites: a schema that differs from the route is told apart', () => {
    const body = (doc.paths['/api/v1/users/code']!.put!.requestBody as { content: Record<string, { schema: unknown }> })
      .content['application/json']!.schema;
    expect(body).not.toEqual(json(contract.confirmCodeBody.extend({ code: z.string().regex(/^\d{4}$/) }), 'input'));
    expect(body).not.toEqual(json(contract.sendCodeBody, 'input'));
  });
});

import createClient from 'openapi-fetch';
import type { paths } from './partner-api.js';

/**
 * The partner API's typed client, generated from its OpenAPI document (openapi-typescript types,
 * openapi-fetch calls): what a lender's developer would use, so the API tests call the routes
 * only as the document says they are.
 */
export function partnerClient(baseUrl: string, token: string) {
  return createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` } });
}
export type PartnerClient = ReturnType<typeof partnerClient>;

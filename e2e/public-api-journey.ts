import type { APIRequestContext } from '@playwright/test';
import { expect } from './fixtures.js';
import { latestCode, latestNip } from './helpers.js';

// A shopkeeper's application made through the public API, as the web app calls it (specs that need
// one decided and care about what follows: the back office, the policy lab).

async function call(
  request: APIRequestContext,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  token?: string,
  data?: unknown,
) {
  const res = await request.fetch(path, {
    method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(data === undefined ? {} : { data }),
  });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  return (await res.json()) as { data: Record<string, unknown> & { [key: string]: never } };
}

/**
 * A shopkeeper through the public API, as the web app calls it: phone proof, the five registration
 * steps (a business of `businessAge` years), the PIN and the pre-approval. Answers the application's id.
 */
export async function shopkeeperThroughPublicApi(
  request: APIRequestContext,
  { phone, taxId, businessAge = 4 }: { phone: string; taxId: string; businessAge?: number },
): Promise<string> {
  await call(request, 'POST', '/api/v1/users/code', undefined, { phone_number: phone });
  const proof = await call(request, 'PUT', '/api/v1/users/code', undefined, {
    phone_number: phone,
    code: await latestCode(request, phone),
  });
  const proofToken = (proof.data.authentication as unknown as { access_token: string }).access_token;
  const registered = await call(request, 'POST', '/api/v2/users', proofToken, {
    account_type_id: 'SK',
    name: 'Mercedes',
    lastname: 'Almonte',
    maternal_lastname: 'Reyes',
    dob: '1984-06-15',
    length_of_residency_in_years: 4,
    marital_status: 'SINGLE',
    phone_number: phone,
  });
  const userId = registered.data.user_id as unknown as string;
  const token = (registered.data.authentication as unknown as { access_token: string }).access_token;
  const step = (method: 'POST' | 'PUT', path: string, data?: unknown) =>
    call(request, method, `/api/v1/users/${userId}/SK${path}`, token, data);
  await step('POST', '/tax_info', { tax_payer_id: taxId });
  const states = (await call(request, 'GET', '/api/v1/states')).data as unknown as { id: number; name: string }[];
  const state = states.find((item) => item.name === 'Distrito Nacional')!;
  const cities = (await call(request, 'GET', `/api/v1/states/${state.id}/cities`)).data as unknown as {
    id: number;
    name: string;
  }[];
  const city = cities.find((item) => item.name === 'Santo Domingo de Guzmán')!;
  const sectors = (await call(request, 'GET', `/api/v1/cities/${city.id}/neighborhoods`)).data as unknown as {
    name: string;
    zip_code: string | null;
  }[];
  await step('POST', '/businesses/address', {
    zip_code: sectors[0]!.zip_code ?? '00000',
    state: state.name,
    city: city.name,
    neighborhood: sectors[0]!.name,
    street_name: 'Calle Duarte',
    street_number: '12',
    apartment_number: '',
  });
  const types = (await call(request, 'GET', '/api/v1/business-types')).data as unknown as string[];
  const ranges = (await call(request, 'GET', '/api/v1/sales-ranges')).data as unknown as { ranges: { id: number }[] };
  await step('POST', '/businesses', {
    name: 'Colmado Mercedes',
    business_type: types[0],
    sales_average_range_id: ranges.ranges.at(-1)!.id,
    business_age: businessAge,
  });
  await step('POST', '/nip');
  const decided = await step('PUT', '/nip', { nip: await latestNip(request, phone) });
  expect(decided.data).toMatchObject({ next_step: 'PASSWORD', status: 'IN_PROGRESS' });
  return userId;
}

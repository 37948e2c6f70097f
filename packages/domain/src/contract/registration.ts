import { z } from 'zod';
import { callsSharing, defineCall, refusals } from './call.js';
import {
  anonymousIdSchema,
  applicationStatusSchema,
  bearerAuthenticationSchema,
  int32,
  nextStepSchema,
  phoneNumberSchema,
  stepAnswerSchema,
  userParams,
} from './common.js';
import {
  amendAddressRoute,
  amendPersonalDataRoute,
  amendTaxIdRoute,
  registerUserRoute,
  saveAddressRoute,
  saveBusinessRoute,
  savedRegistrationRoute,
  saveTaxIdRoute,
} from './routes/registration.js';

const text = (max: number) => z.string().max(max, `* Máximo ${max} caracteres.`);
const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((value) => value ?? null);

/** POST /v2/users: step 1, personal data */
export const registerUserBody = z.object({
  account_type_id: z.literal('SK'),
  name: z.string().max(60),
  lastname: z.string().max(60),
  maternal_lastname: z
    .string()
    .max(60)
    .nullish()
    .transform((value) => value ?? ''),
  dob: z.string().max(10),
  length_of_residency_in_years: int32(),
  marital_status: z.string().max(20),
  phone_number: phoneNumberSchema,
  utm_source: optionalText(200),
  utm_name: optionalText(200),
  utm_medium: optionalText(200),
  sales_identifier: z
    .string()
    .max(100)
    .nullish()
    .transform((value) => value ?? ''),
  anonymous_id: anonymousIdSchema.nullish().transform((value) => value ?? null),
  kiban_flow_version_id: int32()
    .nullish()
    .transform((value) => value ?? null),
});
/** What the app sends. */
export type RegisterUserPayload = z.input<typeof registerUserBody>;
/** What the API reads after the transforms. */
export type RegisterUserInput = z.output<typeof registerUserBody>;
export const createdUserResponse = z.object({
  data: z.object({
    user_id: z.string(),
    user_type: z.literal('SK'),
    next_step: nextStepSchema,
    status: applicationStatusSchema,
    path: z.string(),
    /** Mexico: the RFC the SAT algorithm gives for the names and birth date (prefills step 2). */
    tax_id_suggestion: z.string().nullable(),
    authentication: bearerAuthenticationSchema,
  }),
});
export type CreatedUser = z.infer<typeof createdUserResponse>;

/** POST /v1/users/:id/:type/tax_info: step 2 (answer: stepAnswerSchema) */
export const taxInfoBody = z.object({ tax_payer_id: text(20) });
export type TaxInfoPayload = z.input<typeof taxInfoBody>;

/** POST /v1/users/:id/:type/businesses/address: step 4 (412 outside the service area) */
export const addressBody = z.object({
  zip_code: text(5),
  state: text(100),
  city: text(100),
  neighborhood: text(100),
  street_name: text(120),
  street_number: text(20),
  apartment_number: z
    .string()
    .max(20)
    .nullish()
    .transform((value) => value ?? ''),
  /** 'Mi sector no aparece': `neighborhood` was typed, not chosen from the catalogue. */
  neighborhood_typed: z.boolean().optional(),
});
export type AddressPayload = z.input<typeof addressBody>;
export type AddressInput = z.output<typeof addressBody>;

/** POST /v1/users/:id/:type/businesses: step 5 */
export const businessBody = z.object({
  name: text(100),
  business_type: text(60),
  business_type_other: z
    .string()
    .max(80)
    .nullish()
    .transform((value) => value ?? ''),
  sales_average_range_id: int32(),
  business_age: int32(),
});
export type BusinessPayload = z.input<typeof businessBody>;
export type BusinessInput = z.output<typeof businessBody>;

/**
 * PUT /v1/users/:id/:type/personal-data: a correction of step 1 after going back (issue 27), while
 * the step engine allows it (AMENDMENTS). The answer says where the application stands (unchanged)
 * and, for Mexico, the RFC the corrected names and date give.
 */
export const personalDataBody = registerUserBody.pick({
  name: true,
  lastname: true,
  maternal_lastname: true,
  dob: true,
  length_of_residency_in_years: true,
  marital_status: true,
});
export type PersonalDataPayload = z.input<typeof personalDataBody>;
export type PersonalDataInput = z.output<typeof personalDataBody>;
export const personalDataAmendedResponse = z.object({
  data: stepAnswerSchema.shape.data.extend({ tax_id_suggestion: z.string().nullable() }),
});
export type PersonalDataAmended = z.infer<typeof personalDataAmendedResponse>;

/**
 * GET /v1/users/:id/:type/registration: what each registration step saved (null: not yet), as
 * its screen shows it, and which steps may still be corrected. The screens fill themselves from it
 * when the shopkeeper goes back (issue 27); PUT on tax_info and businesses/address correct those.
 */
export const savedRegistrationSchema = z.object({
  user_id: z.string(),
  next_step: nextStepSchema,
  status: applicationStatusSchema,
  personal: z
    .object({
      name: z.string(),
      lastname: z.string(),
      maternal_lastname: z.string(),
      /** yyyy-MM-dd */
      dob: z.string(),
      length_of_residency_in_years: z.number(),
      marital_status: z.string(),
    })
    .nullable(),
  /** As the field shows it: the cédula dashed 3-7-1, the RFC as is. */
  tax_payer_id: z.string().nullable(),
  address: z
    .object({
      zip_code: z.string(),
      state: z.string(),
      city: z.string(),
      neighborhood: z.string(),
      neighborhood_typed: z.boolean(),
      street_name: z.string(),
      street_number: z.string(),
      apartment_number: z.string(),
      /** The catalogue rows the names match today (null: no longer in the catalogue). */
      state_id: z.number().nullable(),
      city_id: z.number().nullable(),
      neighborhood_id: z.number().nullable(),
    })
    .nullable(),
  business: z
    .object({
      name: z.string(),
      business_type: z.string(),
      business_type_other: z.string(),
      sales_average_range_id: z.number(),
      business_age: z.number(),
    })
    .nullable(),
  editable: z.object({ personal: z.boolean(), tax_id: z.boolean(), address: z.boolean(), business: z.boolean() }),
});
export const savedRegistrationResponse = z.object({ data: savedRegistrationSchema });
export type SavedRegistration = z.infer<typeof savedRegistrationSchema>;

/** What a step may refuse: invalid fields, no token, another's application, a step not current (409 with where it stands), outside the area, the policy, too many. */
const stepRefusals = refusals(400, 401, 403, 409, 412, 422, 429);

export const registerUserCall = defineCall(registerUserRoute, {
  body: registerUserBody,
  responses: { 201: createdUserResponse, ...stepRefusals },
});

/** A saved step: the application's params, the step refusals. */
const stepCall = callsSharing({ params: userParams }, stepRefusals);

export const saveTaxIdCall = stepCall(saveTaxIdRoute, { body: taxInfoBody }, { 200: stepAnswerSchema });
export const saveAddressCall = stepCall(saveAddressRoute, { body: addressBody }, { 200: stepAnswerSchema });
export const saveBusinessCall = stepCall(saveBusinessRoute, { body: businessBody }, { 200: stepAnswerSchema });

export const savedRegistrationCall = defineCall(savedRegistrationRoute, {
  params: userParams,
  responses: { 200: savedRegistrationResponse, ...refusals(401, 403) },
});

export const amendPersonalDataCall = stepCall(
  amendPersonalDataRoute,
  { body: personalDataBody },
  { 200: personalDataAmendedResponse },
);
export const amendTaxIdCall = stepCall(amendTaxIdRoute, { body: taxInfoBody }, { 200: stepAnswerSchema });
export const amendAddressCall = stepCall(amendAddressRoute, { body: addressBody }, { 200: stepAnswerSchema });

import { describe, expect, it } from 'vitest';
import { classifyFailedCall } from './error-reporting.js';

describe('classifyFailedCall (SPEC §8)', () => {
  it.each([
    ['GET', '/api/v1/users?phone_number=8095551234', 404],
    ['POST', '/api/v2/users', 409],
    ['POST', '/api/v2/users', 422],
    ['PUT', '/api/v1/users/u1/SK/nip', 422],
    ['POST', '/api/v1/users/u1/SK/businesses/address', 412],
    ['POST', '/api/v1/users/u1/SK/businesses', 412],
    ['POST', '/api/v1/users/u1/SK/businesses', 422],
    ['PUT', '/api/v1/users/u1/SK/aval/nip?to=5512345678', 422],
    ['GET', '/api/v1/users/SK/u1/contract-link', 401],
    ['GET', '/api/v1/users/SK/u1/contract-link', 409],
    ['PUT', '/api/v1/users/SK/u1/contract', 409],
  ])('skips the expected %s %s %i', (method, url, status) => {
    expect(classifyFailedCall(method, url, status)).toBe('skip');
  });

  it.each([
    ['GET', '/api/v1/users/u1/SK', 404],
    ['POST', '/api/v1/users/code', 429],
    ['POST', '/api/v1/users/u1/SK/businesses/address', 422],
    ['PUT', '/api/v1/users/code', 400],
    ['PUT', '/api/v1/users/SK/u1/contract', 400],
  ])('reports other 4xx as warnings: %s %s %i', (method, url, status) => {
    expect(classifyFailedCall(method, url, status)).toBe('warning');
  });

  it.each([
    ['GET', '/api/v1/users', 500],
    ['POST', '/api/v2/users', 503],
    ['PUT', '/api/v1/users/reverse-otp', 0],
  ])('reports 5xx and no answer as errors: %s %s %i', (method, url, status) => {
    expect(classifyFailedCall(method, url, status)).toBe('error');
  });
});

// The reads of `npm run bench` that need no applicant, by name, as the bench and the profiler ask them.
export const PUBLIC_READS = {
  config: '/api/v1/config',
  cities: '/api/v1/cities?only-allowed=true',
  states: '/api/v1/states',
};

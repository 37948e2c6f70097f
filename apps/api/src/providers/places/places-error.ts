// Its own file so that the vendors' files and index.ts (which builds them) import no cycle.
/** The address service refused the request or could not be reached. */
export class PlacesError extends Error {}

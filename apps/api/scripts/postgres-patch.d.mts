export declare const POSTGRES_PATCH_MARKER: string;
/** postgres.js's src/connection.js with the fixes for a connection the server closed; throws if the source changed. */
export declare function patchPostgresConnection(source: string): string;

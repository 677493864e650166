/** What the auth guards set on a request, for the HTTP adapter to declare up front. */
export const AUTH_REQUEST_FIELDS: readonly PropertyKey[] = ['identity'];

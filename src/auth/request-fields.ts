export const AUTH_REQUEST_FIELDS: readonly PropertyKey[] = ['identity'];

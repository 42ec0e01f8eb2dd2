/** Set by the service worker on an answer taken from the offline cache: the server was not reached. */
export const FROM_CACHE_HEADER = 'x-norma-from-cache';

import { proxy } from 'valtio';

/** spec 02 §3 "page": year (default 2018), photos list. */
export const page = proxy({ year: 2018, photos: [] as string[] });

import { proxy } from 'valtio';

/** spec 02 §3 "markup": task-list paging and search. */
export const markup = proxy({ currentPage: 1, searchPattern: '' });

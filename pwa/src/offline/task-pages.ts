/**
 * Paging of GET /api/v1/get_tasks, shared by the task list screen and the offline prefetch
 * (videoCache.ts), which must ask for the very first page the screen will ask for.
 */
export const TASK_PAGE_SIZE = 30;

export const pageOffset = (page: number) => (page - 1) * TASK_PAGE_SIZE;

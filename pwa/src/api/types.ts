/**
 * The API's request and reply types, read from its zod schemas (api/src/contract.ts): the one
 * contract between the PWA and the API. Type-only: nothing of the API reaches the bundle. A
 * screen that needs a narrower view derives it from these (Pick<>, indexed access), never a copy.
 */
export type * from '../../../api/src/contract';

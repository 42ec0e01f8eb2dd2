/**
 * Proof that the client is typed by the API's routes: each line below is a call the API does not
 * declare, and `tsc -p pwa/tsconfig.json` (npm run check) fails if any of them stops being an error
 * (`@ts-expect-error` on a line without an error is itself an error). Never called.
 */
import { api, downloadFile, type ApiReply } from './client';
import { apiCallUrl, apiUrl } from './paths';
import type { MapFeatureCollection, MapProject, NormCard, VideoMarkupsChanges, VideoMarkupsReply } from './types';

export async function wrongCallsFailTheTypecheck(id: number) {
  // @ts-expect-error a path the API does not declare
  await api.get('/api/v1/no_such_call');
  // @ts-expect-error a path declared for another method (the norm card is read with GET, changed with PUT)
  await api.post('/api/v1/norms/{id}', { path: { id } });
  // @ts-expect-error the path parameter is missing
  await api.get('/api/v1/norms/{id}');
  // @ts-expect-error the path parameter has the wrong name
  await api.get('/api/v1/norms/{id}', { path: { norm_id: id } });
  // @ts-expect-error a query value of the wrong type
  await api.get('/api/v1/get_tasks', { query: { structure_id: 'first' } });
  // @ts-expect-error a query parameter the call does not take
  await api.get('/api/v1/get_tasks', { query: { structure_id: id, page: 2 } });
  // @ts-expect-error a required query parameter is missing
  await api.get('/api/v1/get_tasks', { query: {} });
  // @ts-expect-error a body without a required field
  await api.post('/api/v1/login', { body: { login: 'admin' } });
  // @ts-expect-error a body field of the wrong type
  await api.post('/api/v1/login', { body: { login: 'admin', password: 1 } });
  // @ts-expect-error the reply is the route's: a norm card's id is a number
  const title: string = (await api.get('/api/v1/norms/{id}', { path: { id } })).id;
  // @ts-expect-error a file answer's path is checked too
  await downloadFile('/api/v1/no_such_dump', {}, 'x.tsv');
  // @ts-expect-error so is a URL built for a <video> or a cache
  apiUrl('/api/v1/video_meta/{videoId}', { path: {} });
  // @ts-expect-error and one for a write sent by hand: the upload's query needs the file's name
  apiCallUrl('post', '/api/v1/upload', { query: { camera_id: id } });
  // @ts-expect-error a write's URL names a path declared for that method
  apiCallUrl('put', '/api/v1/whoami');
  return title;
}

/** True when A and B are each assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * Proof that the generated replies are the contract's (types.ts, read from the same zod schemas), not a
 * looser reading of the OpenAPI document: GeoJSON positions stay `[lon, lat, …]`, a nullable collection
 * stays nullable, fields with a default are present, a saved row's id is not optional. Never called.
 */
export function repliesAreTheContracts(): true[] {
  const same: [
    Same<ApiReply<'/api/v1/gis/code', 'get'>, MapFeatureCollection>,
    Same<ApiReply<'/api/v1/gis/coords', 'get'>, MapFeatureCollection>,
    Same<ApiReply<'/api/v1/norms/{id}', 'get'>, NormCard>,
    Same<ApiReply<'/api/v1/projects/last/get', 'get'>, MapProject>,
    Same<ApiReply<'/api/v1/projects/create', 'post'>, MapProject>,
    Same<ApiReply<'/api/v1/projects/last/clear', 'post'>, MapProject>,
    Same<ApiReply<'/api/v1/projects/last/crs', 'post'>, MapProject>,
    Same<ApiReply<'/api/v1/projects/last/golden', 'post'>, MapProject>,
    Same<ApiReply<'/api/v1/projects/last/save', 'post'>, MapProject>,
    Same<ApiReply<'/api/v1/projects/last/set', 'post'>, MapProject>,
    Same<ApiReply<'/api/v1/video_markups/{videoId}', 'get'>, VideoMarkupsReply>,
    Same<ApiReply<'/api/v1/video_markups/{videoId}', 'post'>, VideoMarkupsReply | VideoMarkupsChanges>,
    Same<ApiReply<'/api/v1/video_markups/{videoId}', 'put'>, VideoMarkupsReply | VideoMarkupsChanges>,
  ] = [true, true, true, true, true, true, true, true, true, true, true, true, true];
  return same;
}

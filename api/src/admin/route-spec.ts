import { badRequest } from '../http/errors';
import { errorResponses, parseId } from '../http/openapi';

export const tags = ['Администрирование'];
export const withConflict = { ...errorResponses, 409: errorResponses[400] };

/** An id from the path, for the structure locators that run before the path is parsed. */
export function idOf(raw: string | undefined): number {
  // Decimal digits only: Number('0x10') would name id 16.
  const value = parseId(raw);
  if (value === null) throw badRequest('id: ожидается целое положительное число');
  return value;
}

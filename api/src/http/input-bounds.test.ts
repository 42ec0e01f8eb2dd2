import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-support/testing';

type JsonSchema = Record<string, unknown>;

/**
 * Every array and string a client can send — request bodies, query and path parameters — has a
 * bound in the OpenAPI document (maxItems / maxLength, or an enum, a const or a fixed-length tuple),
 * so no request can make the server walk unbounded input. Read from the document the server serves,
 * which zod-openapi builds from the very schemas the routes validate with.
 */
function unboundedPlaces(
  doc: { components?: { schemas?: Record<string, JsonSchema> } },
  schema: JsonSchema,
  where: string,
  seen = new Set<string>(),
): string[] {
  const found: string[] = [];
  const visit = (node: unknown, at: string) => {
    if (!node || typeof node !== 'object') return;
    const s = node as JsonSchema;
    if (typeof s.$ref === 'string') {
      const name = s.$ref.replace('#/components/schemas/', '');
      if (seen.has(name)) return;
      seen.add(name);
      visit(doc.components?.schemas?.[name], `${at}→${name}`);
      return;
    }
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (types.includes('array') && s.maxItems === undefined && !(Array.isArray(s.prefixItems) && s.items === false)) found.push(`${at}: массив без maxItems`);
    if (types.includes('string') && s.maxLength === undefined && s.enum === undefined && s.const === undefined) found.push(`${at}: строка без maxLength`);
    for (const key of ['items', 'additionalProperties', 'not']) visit(s[key], `${at}.${key}`);
    for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
      if (Array.isArray(s[key])) (s[key] as unknown[]).forEach((sub, i) => visit(sub, `${at}.${key}[${i}]`));
    if (s.properties && typeof s.properties === 'object') for (const [name, sub] of Object.entries(s.properties)) visit(sub, `${at}.${name}`);
  };
  visit(schema, where);
  return found;
}

describe('bounds of every input', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.cleanup());

  it('every array and string in every request body, query and path parameter has a bound', async () => {
    const doc = await (await t.request('/api/openapi.json')).json();
    const unbounded: string[] = [];
    for (const [path, operations] of Object.entries<Record<string, JsonSchema>>(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const where = `${method.toUpperCase()} ${path}`;
        const body = (op.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined)?.content;
        for (const [type, media] of Object.entries(body ?? {}))
          if (type.includes('json') && media.schema) unbounded.push(...unboundedPlaces(doc, media.schema, `${where} тело`));
        for (const parameter of (op.parameters as { name: string; in: string; schema?: JsonSchema }[] | undefined) ?? []) {
          if (parameter.schema) unbounded.push(...unboundedPlaces(doc, parameter.schema, `${where} ${parameter.in}.${parameter.name}`));
        }
      }
    }
    expect(unbounded).toEqual([]);
  });
});

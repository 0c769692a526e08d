import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptedBody, shapeOf } from './requestFields';

interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean;
  items?: Schema;
  readOnly?: boolean;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
}

const document = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
};

const resolve = (schema: Schema): Schema =>
  schema.$ref ? resolve(document.components.schemas[schema.$ref.split('/').pop() as string]) : schema;

const EXTRA = 'gmtCreate';

/**
 * A body that fills every field the schema declares (two levels of nesting are plenty to find a
 * dropped level), with an undeclared field added to every closed object, and the body it should
 * become: the same without the undeclared fields.
 */
function sample(schema: Schema, depth = 0): { sent: unknown; expected: unknown } {
  const resolved = resolve(schema);
  if (depth > 3 || resolved.allOf || resolved.anyOf || resolved.oneOf) return { sent: 'x', expected: 'x' };
  if (resolved.type === 'array' && resolved.items) {
    const item = sample(resolved.items, depth + 1);
    return { sent: [item.sent], expected: [item.expected] };
  }
  if (resolved.properties) {
    const sent: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(resolved.properties)) {
      const value = sample(property, depth + 1);
      sent[name] = value.sent;
      if (!property.readOnly) expected[name] = value.expected;
    }
    if (resolved.additionalProperties === false) sent[EXTRA] = '2026-11-28 10:00:00';
    else expected[EXTRA] = sent[EXTRA] = '2026-11-28 10:00:00';
    return { sent, expected };
  }
  return { sent: 7, expected: 7 };
}

const calls = Object.entries(document.paths).flatMap(([route, item]) =>
  Object.entries(item).flatMap(([method, operation]) => {
    const json = operation.requestBody?.content?.['application/json'];
    return json ? [{ method, route, schema: json.schema }] : [];
  }),
);

describe('a request body as its call accepts it', () => {
  it('covers every call of the document that takes a JSON body', () => {
    expect(calls.length).toBeGreaterThan(200);
  });

  it.each(calls)(
    '$method $route: declared fields kept at every depth, undeclared ones dropped',
    ({ method, route, schema }) => {
      // The client is given paths relative to /api, with the path parameters filled in.
      const url = route.replace(/^\/api/, '').replace(/\{[^}]+\}/g, '42');
      const { sent, expected } = sample(schema);
      expect(acceptedBody(method, url, sent)).toEqual(expected);
    },
  );

  it('leaves calls the document does not know and uploads as they are', () => {
    const body = { anything: 1, [EXTRA]: 'kept' };
    expect(acceptedBody('post', '/no/such/Call/save', body)).toBe(body);
    const upload = new FormData();
    upload.append('file', 'x');
    expect(acceptedBody('post', '/waybill/Fence/update', upload)).toBe(upload);
  });

  it('finds the call with a query string or a trailing slash', () => {
    expect(shapeOf('PUT', '/waybill/Fence/update?x=1')).toEqual(shapeOf('put', '/api/waybill/Fence/update/'));
    expect(shapeOf('PUT', '/waybill/Fence/update')).not.toBeNull();
    expect(shapeOf('POST', '/waybill/Fence/update')).toBeNull(); // the method is part of the call
  });
});

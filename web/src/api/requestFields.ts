/**
 * A request body as its call accepts it. The api refuses a field its request schema does not declare
 * (422 "Unknown field"), and a form that loads a record and sends it back carries what the api only
 * answers (`gmtCreate`, computed counts, a row's own id inside a list). The fields each call accepts
 * come from the api's OpenAPI document (operations.ts, generated), so the client drops the rest in one
 * place and no form has to know.
 */
import { REQUEST_SHAPES } from './operations';

/** `true`: sent as it is; a list of names or `fields`: a closed object; `items`: an array of such. */
export type RequestShape = true | string[] | { fields: Record<string, RequestShape> } | { items: RequestShape };

interface Route {
  pattern: RegExp;
  shape: RequestShape;
}

let routes: Map<string, Route[]> | null = null;

/** "POST /api/x/delete/{id}" -> by method, a pattern over the path. Built on first use. */
function routeTable(): Map<string, Route[]> {
  if (routes) return routes;
  routes = new Map();
  for (const [operation, shape] of Object.entries(REQUEST_SHAPES)) {
    const [method, route] = operation.split(' ');
    const escaped = route.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
    const list = routes.get(method) ?? [];
    list.push({ pattern: new RegExp(`^${escaped}$`), shape });
    routes.set(method, list);
  }
  return routes;
}

/** The shape of the call `method url` (url as the client is given it: relative to /api, or absolute). */
export function shapeOf(method: string, url: string): RequestShape | null {
  const path = url.split('?')[0].replace(/\/+$/, '');
  const full = path.startsWith('/api/') ? path : `/api${path.startsWith('/') ? '' : '/'}${path}`;
  const candidates = routeTable().get(method.toUpperCase()) ?? [];
  return candidates.find((route) => route.pattern.test(full))?.shape ?? null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** `body` with only what `shape` declares, at every depth; values of other kinds are left as they are. */
export function fitToShape(body: unknown, shape: RequestShape): unknown {
  if (shape === true) return body;
  if (Array.isArray(shape)) shape = { fields: Object.fromEntries(shape.map((name) => [name, true as const])) };
  if ('items' in shape) return Array.isArray(body) ? body.map((item) => fitToShape(item, shape.items)) : body;
  if (!isPlainObject(body)) return body;
  const fitted: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    const field = shape.fields[name];
    if (field !== undefined) fitted[name] = fitToShape(value, field);
  }
  return fitted;
}

/** The body the call accepts: unknown calls and non-JSON bodies (uploads) are sent unchanged. */
export function acceptedBody(method: string, url: string, body: unknown): unknown {
  if (body === undefined || body === null) return body;
  const shape = shapeOf(method, url);
  return shape ? fitToShape(body, shape) : body;
}

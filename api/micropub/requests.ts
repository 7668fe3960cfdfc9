/**
 * What a Micropub request asks for (W3C Micropub, sections 3.3-3.7), read from its form-encoded or JSON
 * body into one shape: a create (an h-entry's properties, each a list of values), an update (replace,
 * add, delete), a delete or an undelete. Pure: no store, no key; anything malformed is a
 * MicropubError(400, invalid_request) saying what to send instead, never a throw of anything else.
 * The multipart body is read by endpoint.ts into the same form fields (its files uploaded first).
 */

/** One value of a property: text, HTML content, a photo with its alt text, or a nested object. */
export type Mf2Value = string | { html?: string; value?: string; alt?: string } | Mf2Object;

export interface Mf2Object {
  type: string[];
  properties: Record<string, Mf2Value[]>;
}

export type MicropubAction =
  | { action: 'create'; type: string; properties: Record<string, Mf2Value[]> }
  | { action: 'update'; url: string; replace: Record<string, Mf2Value[]>; add: Record<string, Mf2Value[]>; delete: Record<string, Mf2Value[]> | string[] }
  | { action: 'delete' | 'undelete'; url: string };

export type MicropubErrorCode = 'invalid_request' | 'unauthorized' | 'forbidden' | 'insufficient_scope' | 'too_many_requests' | 'server_error' | 'temporarily_unavailable';

/** A Micropub error: answered as `{ error, error_description }` with its status. */
export class MicropubError extends Error {
  override readonly name = 'MicropubError';
  readonly status: number;
  readonly code: MicropubErrorCode;
  readonly headers: Record<string, string>;

  constructor(status: number, code: MicropubErrorCode, description: string, headers: Record<string, string> = {}) {
    super(description);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

export function invalidRequest(description: string): MicropubError {
  return new MicropubError(400, 'invalid_request', description);
}

/** Form fields and JSON members that are about the request, not properties of the post. */
const REQUEST_FIELDS: ReadonlySet<string> = new Set(['h', 'action', 'url', 'access_token']);

/** How many values one property may carry (a list longer than any post needs is abuse). */
export const MAX_VALUES = 100;
/** How many properties one request may carry. */
export const MAX_PROPERTIES = 100;

/** Names that would reach an object's prototype: no property is called so. */
const UNSAFE_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

function checkName(name: string): void {
  if (UNSAFE_NAMES.has(name)) throw invalidRequest(`"${name}" is not a property name this endpoint takes.`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A property's values from a JSON body: a list of strings or objects (`{html}`, `{value, alt}`, a nested h-*). */
function jsonValues(name: string, raw: unknown, depth = 0): Mf2Value[] {
  if (!Array.isArray(raw)) throw invalidRequest(`The property "${name}" must be a list of values, e.g. "${name}": ["..."] (Micropub's JSON sends every property as an array).`);
  if (raw.length > MAX_VALUES) throw invalidRequest(`The property "${name}" has ${raw.length} values; at most ${MAX_VALUES} are taken.`);
  return raw.map((value): Mf2Value => {
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    if (isRecord(value)) {
      if (Array.isArray(value.type) && isRecord(value.properties)) {
        if (depth > 3) throw invalidRequest(`The property "${name}" nests objects more than 4 deep.`);
        return nestedObject(name, value, depth + 1);
      }
      const out: { html?: string; value?: string; alt?: string } = {};
      for (const part of ['html', 'value', 'alt'] as const) {
        const member = value[part];
        if (member === undefined) continue;
        if (typeof member !== 'string') throw invalidRequest(`In the property "${name}", "${part}" must be text.`);
        out[part] = member;
      }
      if (out.html === undefined && out.value === undefined) throw invalidRequest(`A value of the property "${name}" is an object without "html" or "value": send text, {"html": "..."} or {"value": "...", "alt": "..."}.`);
      return out;
    }
    throw invalidRequest(`A value of the property "${name}" is ${value === null ? 'null' : 'a list'}: send text or an object.`);
  });
}

function nestedObject(name: string, value: Record<string, unknown>, depth: number): Mf2Object {
  const types = (value.type as unknown[]).filter((type): type is string => typeof type === 'string');
  const properties: Record<string, Mf2Value[]> = {};
  for (const [property, inner] of Object.entries(value.properties as Record<string, unknown>)) {
    checkName(property);
    properties[property] = jsonValues(`${name}.${property}`, inner, depth);
  }
  return { type: types, properties };
}

function jsonProperties(raw: unknown, what: string): Record<string, Mf2Value[]> {
  if (!isRecord(raw)) throw invalidRequest(`"${what}" must be an object of properties, each a list of values, e.g. {"content": ["hello"]}.`);
  const entries = Object.entries(raw);
  if (entries.length > MAX_PROPERTIES) throw invalidRequest(`"${what}" has ${entries.length} properties; at most ${MAX_PROPERTIES} are taken.`);
  const out: Record<string, Mf2Value[]> = {};
  for (const [name, values] of entries) {
    checkName(name);
    out[name] = jsonValues(name, values);
  }
  return out;
}

function urlOf(raw: unknown): string {
  const url = Array.isArray(raw) ? raw[0] : raw;
  if (typeof url !== 'string' || url.trim() === '') throw invalidRequest('The request needs "url": the address of the post it acts on.');
  return url.trim();
}

/** The action of a JSON body (application/json). */
export function readJsonRequest(body: unknown): MicropubAction {
  if (!isRecord(body)) throw invalidRequest('The JSON body must be an object: {"type": ["h-entry"], "properties": {...}} to create, or {"action": ..., "url": ...}.');
  const action = body.action;
  if (action === undefined || action === 'create') {
    const type = body.type;
    if (!Array.isArray(type) || typeof type[0] !== 'string') throw invalidRequest('A JSON create needs "type": ["h-entry"] and "properties".');
    return { action: 'create', type: type[0], properties: jsonProperties(body.properties, 'properties') };
  }
  if (action === 'delete' || action === 'undelete') return { action, url: urlOf(body.url) };
  if (action === 'update') {
    const url = urlOf(body.url);
    const replace = body.replace === undefined ? {} : jsonProperties(body.replace, 'replace');
    const add = body.add === undefined ? {} : jsonProperties(body.add, 'add');
    let remove: Record<string, Mf2Value[]> | string[] = [];
    if (Array.isArray(body.delete)) {
      if (!body.delete.every((name): name is string => typeof name === 'string' && !UNSAFE_NAMES.has(name))) throw invalidRequest('"delete" must list property names, e.g. ["category"], or map them to the values to remove.');
      remove = body.delete;
    } else if (body.delete !== undefined) remove = jsonProperties(body.delete, 'delete');
    if (body.replace === undefined && body.add === undefined && body.delete === undefined) throw invalidRequest('An update needs "replace", "add" or "delete".');
    return { action: 'update', url, replace, add, delete: remove };
  }
  throw invalidRequest(`The action "${typeof action === 'string' ? action.slice(0, 40) : JSON.stringify(action)}" is not supported: use create, update, delete or undelete.`);
}

/**
 * The action of form fields (application/x-www-form-urlencoded, or a multipart body's text fields):
 * `h=entry`, properties as `name=value` or `name[]=value` (repeated), `action=delete&url=...`.
 * `access_token` is not a property (the endpoint reads it, nothing stores it).
 */
export function readFormRequest(fields: ReadonlyArray<readonly [string, string]>): MicropubAction {
  const values = new Map<string, string[]>();
  for (const [rawName, value] of fields) {
    const name = rawName.endsWith('[]') ? rawName.slice(0, -2) : rawName;
    checkName(name);
    if (name === '' || /[[\]]/.test(name)) throw invalidRequest(`The form field "${rawName.slice(0, 60)}" is not a property name Micropub's form encoding takes (name or name[]); send nested values as JSON.`);
    const list = values.get(name) ?? [];
    if (list.length >= MAX_VALUES) throw invalidRequest(`The property "${name}" has more than ${MAX_VALUES} values.`);
    list.push(value);
    values.set(name, list);
  }
  if (values.size > MAX_PROPERTIES + REQUEST_FIELDS.size) throw invalidRequest(`The request has ${values.size} fields; at most ${MAX_PROPERTIES} properties are taken.`);
  const action = values.get('action')?.[0];
  if (action === 'delete' || action === 'undelete') return { action, url: urlOf(values.get('url')) };
  if (action === 'update') throw invalidRequest('Updates are sent as JSON: {"action": "update", "url": ..., "replace": {...}}.');
  if (action !== undefined && action !== 'create') throw invalidRequest(`The action "${action.slice(0, 40)}" is not supported: use create, update, delete or undelete.`);
  const h = values.get('h')?.[0];
  if (h === undefined) throw invalidRequest('A form-encoded create needs h=entry.');
  const properties: Record<string, Mf2Value[]> = {};
  for (const [name, list] of values) if (!REQUEST_FIELDS.has(name)) properties[name] = list;
  return { action: 'create', type: `h-${h}`, properties };
}

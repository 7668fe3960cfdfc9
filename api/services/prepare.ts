/**
 * Everything a create or a validate checks in a body, from its JSON text to the post the store keeps:
 * the contract's schema, then the cleaning (the HTML sanitiser above all). A pure function of its
 * input and answer, both plain data, so it runs the same on the prepare thread (prepare-thread.ts)
 * as on the event loop.
 */
import { checkCreatePostBody } from '../../contract/blog';
import type { FieldProblem } from '../../contract/field-problems';
import { cleanPost, type PreparedPost } from './posts';

export interface PrepareRequest {
  /** The body's JSON text (already known to be JSON). */
  text: string;
  /** The API key sending it, kept with the post. */
  keyId: string | null;
}

export type PrepareOutcome =
  | { ok: true; prepared: PreparedPost }
  /** The body is a JSON string that itself holds JSON: the payload was serialised twice. */
  | { ok: false; reason: 'json_string' }
  /** What the schema found wrong (`stage: 'schema'`), or what was left wrong after cleaning. */
  | { ok: false; reason: 'invalid'; stage: 'schema' | 'cleaning'; problems: FieldProblem[] };

/** Prepares a body from its JSON text (on the prepare thread, which gets the text). */
export function prepareCreate(request: PrepareRequest): PrepareOutcome {
  return preparePayload(JSON.parse(request.text), request.keyId);
}

/** Prepares a body already parsed (on the event loop, where jsonBody parsed it). */
export function preparePayload(body: unknown, keyId: string | null): PrepareOutcome {
  const check = checkCreatePostBody(body);
  if (!check.ok) {
    return check.reason === 'json_string' ? check : { ok: false, reason: 'invalid', stage: 'schema', problems: check.problems };
  }
  const cleaned = cleanPost(check.data, check.ignoredFields, keyId);
  return cleaned.ok ? cleaned : { ok: false, reason: 'invalid', stage: 'cleaning', problems: cleaned.problems };
}

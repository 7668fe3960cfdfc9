/**
 * API key checks: `Authorization: Bearer <key>`, verified by the key service, then the permission the
 * route needs. Missing, malformed, unknown and revoked keys are 401s with their own codes and messages;
 * a valid key without the permission is a 403.
 */
import type { ParameterizedContext } from 'koa';
import { ApiError } from '../../contract/errors';
import { type ApiKeySummary, type ApiPermission, readBearerToken } from '../../contract/keys';
import type { KeyService, KeyVerification } from '../services/keys';
import type { ApiMiddleware, ApiState } from './api-state';

const CHALLENGE = 'Bearer realm="blog-api"';

function misplacedKeyHint(ctx: ParameterizedContext<ApiState>): string[] {
  if (ctx.get('X-API-Key')) return ['The key was sent in an X-API-Key header: send it as Authorization: Bearer <key> instead.'];
  if (ctx.query.api_key !== undefined || ctx.query.key !== undefined) {
    return ['The key was sent in the query string, where it ends up in logs: send it as Authorization: Bearer <key> instead.'];
  }
  return [];
}

/** The key in `Authorization: Bearer <key>`; a 401 when there is none. */
function bearerToken(ctx: ParameterizedContext<ApiState>): string {
  const bearer = readBearerToken(ctx.get('Authorization') || undefined);
  if (bearer.ok) return bearer.token;
  const headers = { 'WWW-Authenticate': CHALLENGE };
  if (bearer.problem === 'missing') throw new ApiError('missing_api_key', { headers, hints: misplacedKeyHint(ctx) });
  throw new ApiError('malformed_api_key', { headers, message: 'The Authorization header must read "Bearer <key>".' });
}

/** Verifies the request's key (401 when missing or not valid); sets ctx.state.apiKey. */
export async function verifyKey(ctx: ParameterizedContext<ApiState>, keys: KeyService): Promise<ApiKeySummary> {
  const token = bearerToken(ctx);
  return accepted(ctx, keys.verifyNow(token) ?? (await keys.verify(token)));
}

/**
 * authenticate() without a promise when the key can be verified at once (KeyService.verifyNow), as
 * nearly every request's can; undefined when it cannot (then call authenticate()).
 */
function authenticateNow(ctx: ParameterizedContext<ApiState>, keys: KeyService, permission: ApiPermission): ApiKeySummary | undefined {
  let key = ctx.state.apiKey;
  if (!key) {
    const result = keys.verifyNow(bearerToken(ctx));
    if (!result) return undefined;
    key = accepted(ctx, result);
  }
  requirePermission(key, permission);
  return key;
}

/** The key of a verification that succeeded, set on ctx.state.apiKey; a 401 for one that failed. */
function accepted(ctx: ParameterizedContext<ApiState>, result: KeyVerification): ApiKeySummary {
  if (!result.ok) {
    const headers = { 'WWW-Authenticate': `${CHALLENGE}, error="invalid_token"` };
    if (result.reason === 'malformed') throw new ApiError('malformed_api_key', { headers, message: result.message });
    throw new ApiError('invalid_api_key', {
      headers,
      ...(result.reason === 'revoked' ? { message: 'This API key has been revoked.' } : {}),
    });
  }
  ctx.state.apiKey = result.key;
  return result.key;
}

/** A 403 unless `key` holds `permission`. */
export function requirePermission(key: ApiKeySummary, permission: ApiPermission): void {
  if (!key.permissions.includes(permission)) {
    throw new ApiError('insufficient_permissions', {
      message: `This API key lacks the ${permission} permission.`,
      extra: { requiredPermission: permission, keyPermissions: key.permissions },
    });
  }
}

/** The request's key, verified now unless an earlier middleware did, holding `permission`. */
export async function authenticate(ctx: ParameterizedContext<ApiState>, keys: KeyService, permission: ApiPermission): Promise<ApiKeySummary> {
  const key = ctx.state.apiKey ?? (await verifyKey(ctx, keys));
  requirePermission(key, permission);
  return key;
}

export function requireApiKey(keys: KeyService, permission: ApiPermission): ApiMiddleware {
  // Not async: a key verified at once costs the request no promise of its own.
  return (ctx, next) => {
    if (authenticateNow(ctx, keys, permission)) return next();
    return authenticate(ctx, keys, permission).then(() => next());
  };
}

/** Verifies a key when one is sent (reads: no key needed, but a wrong one is reported), whatever it may do. */
export function identifyApiKey(keys: KeyService): ApiMiddleware {
  return async (ctx, next) => {
    if (ctx.get('Authorization') !== '') await verifyKey(ctx, keys);
    await next();
  };
}

/** Checks a key only when one is sent, permission included (validate mirrors what a create would say). */
export function optionalApiKey(keys: KeyService, permission: ApiPermission): ApiMiddleware {
  return async (ctx, next) => {
    if (ctx.get('Authorization') !== '') await authenticate(ctx, keys, permission);
    await next();
  };
}

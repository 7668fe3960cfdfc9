/**
 * API key checks: `Authorization: Bearer <key>`, verified by the key service, then the permission the
 * route needs. Missing, malformed, unknown and revoked keys are 401s with their own codes and messages;
 * a valid key without the permission is a 403. One async middleware, `authenticate`, for every route.
 * The key id a request names is kept in `ctx.state.keyId` for the request log, and a stored key's
 * failure is recorded on it (best effort). A key sent wrong in a known way (contract/key-mistakes.ts) is
 * answered with that mistake named, and the kind of mistake kept in `ctx.state.keyMistake`.
 */
import type { ParameterizedContext } from 'koa';
import { ApiError } from '../../contract/errors';
import { classifyAuthorizationMistake, KEY_MISTAKE_MESSAGES } from '../../contract/key-mistakes';
import { type ApiKeySummary, type ApiPermission, permits, readBearerToken } from '../../contract/keys';
import type { KeyService } from '../services/keys';
import type { ApiMiddleware, ApiState } from './context';

export const BEARER_CHALLENGE = 'Bearer realm="blog-api"';

export interface AuthenticateOptions {
  /** The permission the route needs; none: any valid key. */
  permission?: ApiPermission;
  /** Without an Authorization header the request goes on anonymously (a key that is sent must still be valid). */
  optional?: boolean;
}

function misplacedKeyHint(ctx: ParameterizedContext<ApiState>): string[] {
  if (ctx.get('X-API-Key')) return ['The key was sent in an X-API-Key header: send it as Authorization: Bearer <key> instead.'];
  if (ctx.query.api_key !== undefined || ctx.query.key !== undefined) {
    return ['The key was sent in the query string, where it ends up in logs: send it as Authorization: Bearer <key> instead.'];
  }
  return [];
}

/** A 403 unless `key` holds `permission`. */
export function requirePermission(key: ApiKeySummary, permission: ApiPermission): void {
  if (!permits(key.permissions, permission)) {
    throw new ApiError('insufficient_permissions', {
      message: `This API key lacks the ${permission} permission.`,
      extra: { requiredPermission: permission, keyPermissions: key.permissions },
    });
  }
}

/** Verifies the request's key and sets `ctx.state.key`; see AuthenticateOptions. */
export function authenticate(keys: KeyService, options: AuthenticateOptions = {}): ApiMiddleware {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    if (header === '' && options.optional) return next();
    // A key sent wrong in a way people make (a line break, quotes, Bearer twice) is named as such:
    // "malformed" alone leaves them comparing 53 characters by eye.
    const mistake = classifyAuthorizationMistake(header);
    if (mistake) {
      ctx.state.keyMistake = mistake;
      throw new ApiError('malformed_api_key', {
        headers: { 'WWW-Authenticate': `${BEARER_CHALLENGE}, error="invalid_token"` },
        message: KEY_MISTAKE_MESSAGES[mistake],
        extra: { key_problem: mistake },
      });
    }
    const bearer = readBearerToken(header || undefined);
    if (!bearer.ok) {
      const headers = { 'WWW-Authenticate': BEARER_CHALLENGE };
      if (bearer.problem === 'missing') throw new ApiError('missing_api_key', { headers, hints: misplacedKeyHint(ctx) });
      throw new ApiError('malformed_api_key', { headers, message: 'The Authorization header must read "Bearer <key>".' });
    }
    const result = await keys.verify(bearer.token);
    if (!result.ok) {
      const headers = { 'WWW-Authenticate': `${BEARER_CHALLENGE}, error="invalid_token"` };
      if (result.reason === 'malformed') throw new ApiError('malformed_api_key', { headers, message: result.message });
      ctx.state.keyId = result.publicId;
      keys.recordFailure(result.publicId, 'invalid_api_key');
      throw new ApiError('invalid_api_key', {
        headers,
        ...(result.reason === 'revoked' ? { message: 'This API key has been revoked.' } : {}),
      });
    }
    ctx.state.keyId = result.key.id;
    if (options.permission && !permits(result.key.permissions, options.permission)) {
      keys.recordFailure(result.key.id, 'insufficient_permissions');
      requirePermission(result.key, options.permission);
    }
    ctx.state.key = result.key;
    return next();
  };
}

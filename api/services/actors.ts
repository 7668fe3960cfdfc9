/**
 * Who asks for a write to a post, as the post service (post-service.ts) needs to know it: which posts
 * it may change, how the compliance gate treats it, how the audit log names it and where the request
 * came from. A route makes a key's actor, the staff area a staff member's; the site's own writes (the
 * demo posts a fresh install loads) have theirs.
 */
import type { ApiKeySummary } from '../../contract/keys';
import type { AuditAction, AuditEntry } from '../../contract/staff';
import type { PostAuthorKey } from './posts';

export type Actor =
  /** A request made with an API key: `key:<public id>` in the audit log. */
  | { kind: 'key'; key: Pick<ApiKeySummary, 'id' | 'owner' | 'permissions'>; ip: string | null }
  /** A signed-in staff member: `staff:<e-mail>`; changes any post, as a blog:admin key does. */
  | { kind: 'staff'; email: string; ip: string }
  /** The site's own content: never recorded (no one asked for it). */
  | { kind: 'site' }
  /**
   * An import run from the CLI on the store (`import:wordpress` in the audit log; decision 0029): it only
   * creates posts, owned by `owner` (the keys of that owner may change them; none: staff and admin keys
   * only), and meets the compliance gate as a key without blog:admin does.
   */
  | { kind: 'import'; source: string; ip: null; owner: string | null };

export const SITE_ACTOR: Actor = { kind: 'site' };

/** A request's API key; `ip` as the request log has it (none: null). */
export function keyActor(key: Pick<ApiKeySummary, 'id' | 'owner' | 'permissions'>, ip: string): Actor {
  return { kind: 'key', key, ip: ip || null };
}

/** An import's actor (`import:wordpress`), making posts owned by `owner`. */
export function importActor(source: string, owner: string | null = null): Actor {
  return { kind: 'import', source, ip: null, owner };
}

export function staffActor(email: string, ip: string): Actor {
  return { kind: 'staff', email, ip };
}

/** Who changes a post: the key's id and owner (none for staff and the site), and whether any post is theirs to change. */
export interface Editor extends PostAuthorKey {
  admin: boolean;
}

export function editorOf(actor: Actor): Editor {
  if (actor.kind === 'key') return { keyId: actor.key.id, owner: actor.key.owner, admin: actor.key.permissions.includes('blog:admin') };
  // An import meets the compliance gate as an author's key does: review mode holds its risky posts.
  if (actor.kind === 'import') return { keyId: null, owner: actor.owner, admin: false };
  return { keyId: null, owner: null, admin: true };
}

/** How the audit log, and a review's `decidedBy`, name the actor. */
export function actorLabel(actor: Actor): string {
  if (actor.kind === 'key') return `key:${actor.key.id}`;
  if (actor.kind === 'import') return `import:${actor.source}`;
  return actor.kind === 'staff' ? `staff:${actor.email}` : 'site';
}

/** An audit entry for something `actor` did, made from `ip`. */
export function auditEntry(actor: Actor, at: Date, action: AuditAction, target: string | null, detail: AuditEntry['detail'], ip: string | null): AuditEntry {
  return { at: at.toISOString(), actor: actorLabel(actor), action, target, detail, ip };
}

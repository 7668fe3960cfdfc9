/**
 * Who a write is by, as the post service sees it: what a key, a staff member and the site may change,
 * and how the audit log names each.
 */
import { describe, expect, it } from 'vitest';
import { actorLabel, auditEntry, editorOf, keyActor, SITE_ACTOR, staffActor } from './actors';

const NOW = new Date('2026-11-25T10:00:00.000Z');
const author = { id: 'abc', owner: 'acme', permissions: ['blog:write' as const] };

describe('actors', () => {
  it('lets a key change its owner’s posts, or any post with blog:admin; staff and the site change any', () => {
    expect(editorOf(keyActor(author, '203.0.113.9'))).toEqual({ keyId: 'abc', owner: 'acme', admin: false });
    expect(editorOf(keyActor({ ...author, permissions: ['blog:write', 'blog:admin'] }, '')).admin).toBe(true);
    expect(editorOf(staffActor('jane@example.com', '203.0.113.9'))).toEqual({ keyId: null, owner: null, admin: true });
    expect(editorOf(SITE_ACTOR)).toEqual({ keyId: null, owner: null, admin: true });
  });

  it('names a key key:<id> and a staff member staff:<e-mail>; a request without an address has none', () => {
    expect(actorLabel(keyActor(author, '203.0.113.9'))).toBe('key:abc');
    expect(actorLabel(staffActor('jane@example.com', '203.0.113.9'))).toBe('staff:jane@example.com');
    expect(keyActor(author, '')).toMatchObject({ ip: null });
  });

  it('writes an audit entry with who, what, on what, when and from where', () => {
    expect(auditEntry(keyActor(author, '203.0.113.9'), NOW, 'review.approved', 'p1', { rules: 'x' }, '203.0.113.9')).toEqual({
      at: '2026-11-25T10:00:00.000Z',
      actor: 'key:abc',
      action: 'review.approved',
      target: 'p1',
      detail: { rules: 'x' },
      ip: '203.0.113.9',
    });
  });
});

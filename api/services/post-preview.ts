/**
 * Shareable preview links of unpublished posts (/preview/<token>): the token names a post and when the
 * link stops working, signed as every link the site hands out (api/services/signed-links.ts: HMAC-SHA256
 * under the store's pseudonym key, which every app server shares; docs/decisions/0026-preview-links.md). Nothing is stored per link: a link cannot
 * be withdrawn one by one, it expires, and it shows the post as it reads when opened (no revision pinned).
 */
import { PREVIEW_LINK_DAYS } from '../../contract/post-preview';
import { linkSigner } from './signed-links';

const LINK_MS = PREVIEW_LINK_DAYS * 24 * 60 * 60 * 1000;
/** `<post id, base64url>.<expiry, seconds since 1970>.<signature>`. */
const TOKEN = /^([A-Za-z0-9_-]{1,200})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export type PreviewTokenCheck =
  | { kind: 'good'; postId: string; expiresAt: Date }
  /** Signed by this site, but too old. */
  | { kind: 'expired'; postId: string; expiresAt: Date }
  /** Malformed, forged, or signed with another key. */
  | { kind: 'bad' };

export interface PreviewTokens {
  make(postId: string, now: Date): Promise<{ token: string; expiresAt: Date }>;
  check(token: string, now: Date): Promise<PreviewTokenCheck>;
}

export function previewTokens(key: () => Promise<Buffer>): PreviewTokens {
  const signer = linkSigner(key);
  const sign = (encodedId: string, expires: string) => signer.sign('post-preview', `${encodedId}.${expires}`);
  return {
    async make(postId, now) {
      const expiresAt = new Date(Math.floor((now.getTime() + LINK_MS) / 1000) * 1000);
      const encodedId = Buffer.from(postId, 'utf8').toString('base64url');
      const expires = String(expiresAt.getTime() / 1000);
      return { token: `${encodedId}.${expires}.${await sign(encodedId, expires)}`, expiresAt };
    },
    async check(token, now) {
      const match = TOKEN.exec(token);
      if (!match?.[1] || !match[2] || !match[3]) return { kind: 'bad' };
      if (!(await signer.verify('post-preview', `${match[1]}.${match[2]}`, match[3]))) return { kind: 'bad' };
      const postId = Buffer.from(match[1], 'base64url').toString('utf8');
      const expiresAt = new Date(Number(match[2]) * 1000);
      return now.getTime() < expiresAt.getTime() ? { kind: 'good', postId, expiresAt } : { kind: 'expired', postId, expiresAt };
    },
  };
}

/**
 * A page's form body, read whole by a guard before the page's action (so the guard can check it) and
 * handed on as `ctx.state.formBody`, which api/site/render.ts passes to the action as read. The vitals
 * beacon's body is read the same way (api/analytics/vitals.ts).
 */
import type { Context } from 'koa';

/** The body, or null when it is (or says it is) longer than `limit` bytes. */
export async function readForm(ctx: Context, limit: number): Promise<Buffer | null> {
  const declared = Number(ctx.get('Content-Length'));
  if (Number.isFinite(declared) && declared > limit) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Whether `body` reads as a form of `contentType` (a multipart body cut short, or without its boundary, does not). */
export async function readsAsForm(body: Buffer, contentType: string): Promise<boolean> {
  try {
    await new Response(new Uint8Array(body), { headers: { 'Content-Type': contentType } }).formData();
    return true;
  } catch {
    return false;
  }
}

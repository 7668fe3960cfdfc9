/**
 * Text put into HTML or XML that someone else wrote: `&`, `<`, `>`, `"` and `'` as entities, so the
 * text can go into element content and into quoted attribute values alike (HTML e-mails, the markup
 * the media API suggests, the page boot's attributes, the feeds).
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeMarkup } from './markup';

/** What an HTML parser reads back from text escaped for element content and for a quoted attribute. */
function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? '');
}

describe('escapeMarkup', () => {
  it('turns the five markup characters into entities and leaves the rest', () => {
    expect(escapeMarkup(`Tom & Jerry's <"best"> é`)).toBe('Tom &amp; Jerry&#39;s &lt;&quot;best&quot;&gt; é');
  });

  it('never leaves a character that could end an attribute or open a tag, and reads back as the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const escaped = escapeMarkup(text);
        expect(escaped).not.toMatch(/[<>"']/);
        expect(escaped).not.toMatch(/&(?!amp;|lt;|gt;|quot;|#39;)/);
        expect(decode(escaped)).toBe(text);
      }),
    );
  });
});

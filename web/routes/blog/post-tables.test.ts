/** The scroll box around a post's tables: each outermost table wrapped once, named from its caption or header. */
import { describe, expect, it } from 'vitest';
import { alignedCellClasses, tableSubject, wrapPostTables } from './post-tables';

const BOX = '<div class="table-scroll post-table" role="region" tabindex="0" aria-label=';

describe('wrapPostTables', () => {
  it('wraps a table in a focusable region named after its caption, leaving the rest as it was', () => {
    const table = '<table><caption>Premiums by age</caption><tr><th>Age</th><td>35</td></tr></table>';
    expect(wrapPostTables(`<p>Before</p>${table}<p>After</p>`)).toBe(`<p>Before</p>${BOX}"Table: Premiums by age">${table}</div><p>After</p>`);
  });

  it('names a table without a caption after its first header cell that has text', () => {
    const table = '<table><thead><tr><th></th><th scope="col">Year <em>one</em></th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>';
    expect(wrapPostTables(table)).toBe(`${BOX}"Table: Year one">${table}</div>`);
  });

  it('numbers a table with neither caption nor header text', () => {
    const first = '<table><tr><td>a</td></tr></table>';
    const second = '<TABLE><tr><td>b</td></tr></TABLE>';
    expect(wrapPostTables(`${first}<p>x</p>${second}`)).toBe(`${BOX}"Table 1">${first}</div><p>x</p>${BOX}"Table 2">${second}</div>`);
  });

  it('wraps only the outer table of a nested one', () => {
    const table = '<table><tr><th>Outer</th><td><table><tr><th>Inner</th></tr></table></td></tr></table>';
    const wrapped = wrapPostTables(table);
    expect(wrapped).toBe(`${BOX}"Table: Outer">${table}</div>`);
    expect(wrapped.match(/role="region"/g)).toHaveLength(1);
  });

  it('keeps character references in the name and closes no attribute early', () => {
    const table = '<table><caption>Fees &amp; "costs" &lt;2026&gt;</caption></table>';
    expect(wrapPostTables(table)).toBe(`${BOX}"Table: Fees &amp; &quot;costs&quot; &lt;2026&gt;">${table}</div>`);
  });

  it("writes a cell's column alignment as a class, the rest of the cell as it was", () => {
    const table = '<table><tr><th align="right">Rate</th><th scope="col" align="center">Year</th><th>Note</th></tr><tr><td align="left">-8.1%</td><td colspan="2" align="RIGHT">2</td></tr></table>';
    expect(alignedCellClasses(table)).toBe(
      '<table><tr><th class="align-right">Rate</th><th scope="col" class="align-center">Year</th><th>Note</th></tr><tr><td class="align-left">-8.1%</td><td colspan="2" class="align-right">2</td></tr></table>',
    );
    expect(wrapPostTables(table)).not.toContain('align=');
    expect(alignedCellClasses('<p align="right">not a cell</p>')).toBe('<p align="right">not a cell</p>');
  });

  it('leaves HTML without tables, or with a table that never closes, unchanged', () => {
    expect(wrapPostTables('<p>A table-free post about tablets.</p>')).toBe('<p>A table-free post about tablets.</p>');
    expect(wrapPostTables('<table><tr><td>open')).toBe('<table><tr><td>open');
    expect(wrapPostTables('</table><p>stray</p>')).toBe('</table><p>stray</p>');
  });
});

describe('tableSubject', () => {
  it('prefers the caption, then the first header with text, else nothing', () => {
    expect(tableSubject('<table><caption> Loans \n over time </caption><tr><th>Year</th></tr></table>')).toBe('Loans over time');
    expect(tableSubject('<table><caption></caption><tr><th> </th><th>Year</th></tr></table>')).toBe('Year');
    expect(tableSubject('<table><tr><td>1</td></tr></table>')).toBeNull();
  });
});

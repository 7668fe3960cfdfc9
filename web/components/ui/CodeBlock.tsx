/** A block of code that can scroll sideways; focusable so keyboard users can scroll it too, and a named group (a name on a bare <pre> is invalid HTML; a region would be a landmark). */
export function CodeBlock({ code, label, language }: { code: string; label: string; language?: string }) {
  return (
    <pre tabIndex={0} role="group" aria-label={label} className="code-block" data-language={language}>
      <code>{code}</code>
    </pre>
  );
}

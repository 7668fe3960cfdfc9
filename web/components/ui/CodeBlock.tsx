/** A block of code that can scroll sideways; focusable so keyboard users can scroll it too. */
export function CodeBlock({ code, label, language }: { code: string; label: string; language?: string }) {
  return (
    <pre tabIndex={0} aria-label={label} className="code-block" data-language={language}>
      <code>{code}</code>
    </pre>
  );
}

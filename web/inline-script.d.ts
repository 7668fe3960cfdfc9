/** `import source from './module?inline-script'`: the module bundled into one script's source text (scripts/vite-inline-script.ts). */
declare module '*?inline-script' {
  const source: string;
  export default source;
}

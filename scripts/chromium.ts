/**
 * Debian's Chromium (`apt-get install chromium`), as the browser tests and `npm run lighthouse` drive
 * it: the binary (CHROME_PATH overrides it) and the flags that keep a headless run quiet and local (no
 * sandbox for root, no GPU, no QUIC, no first-run UI, no background networking, updates or sync).
 */
export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The drawing on a blog card whose post has no cover: one small scene per category, so a list of
 * posts without pictures still tells the categories apart at a glance. Each is inline SVG in the card's
 * 160 x 90 box (the right-hand side; the category's name sits at the left), white shapes at low
 * opacity with one gold accent, on the category's colour (web/styles/blog.css). Decoration only.
 */
import type { ReactNode } from 'react';

const SCENES: Record<string, ReactNode> = {
  // Insurance Basics: a shield with a tick, protection.
  'insurance-basics': (
    <>
      <path d="M128 12 150 20v22c0 16-9 28-22 36-13-8-22-20-22-36V20Z" className="fallback-bar" />
      <path d="m117 44 8 8 15-16" className="fallback-line fallback-line-accent" />
    </>
  ),
  // IUL Strategies: an index line that swings up and down, credited between a 0% floor and a cap.
  'iul-strategies': (
    <>
      <path d="M92 30h68M92 70h68" className="fallback-line fallback-line-dashed" />
      <path d="m92 62 12-26 10 44 12-52 10 34 12-22 10 18" className="fallback-line" />
      <path d="m92 66 12-10 10 8 12-14 10 6 12-12 10 2" className="fallback-line fallback-line-accent" />
    </>
  ),
  // Retirement Planning: the sun on the horizon, and the road to it.
  'retirement-planning': (
    <>
      <circle cx="128" cy="52" r="18" className="fallback-bar-top" />
      <path d="M88 52h72v46H88Z" className="fallback-bar" />
      <path d="M122 98 126 56h4l4 42Z" className="fallback-halo-strong" />
    </>
  ),
  // Tax Benefits: a tax form, its percentage struck through.
  'tax-benefits': (
    <>
      <rect x="104" y="12" width="44" height="60" rx="4" className="fallback-bar" />
      <path d="M112 24h28M112 32h20" className="fallback-line" />
      <circle cx="118" cy="46" r="4" className="fallback-line" />
      <circle cx="134" cy="60" r="4" className="fallback-line" />
      <path d="m136 42-20 22" className="fallback-line" />
      <path d="m106 70 40-40" className="fallback-line fallback-line-accent" />
    </>
  ),
  // Financial Education: an open book with a bookmark.
  'financial-education': (
    <>
      <path d="M96 30q16-8 32 0v44q-16-8-32 0Z" className="fallback-bar" />
      <path d="M128 30q16-8 32 0v44q-16-8-32 0Z" className="fallback-bar" />
      <path d="M140 26v22l5-4 5 4V24" className="fallback-bar-top" />
      <path d="M102 40q10-4 20 0M102 50q10-4 20 0M102 60q10-4 20 0" className="fallback-line" />
    </>
  ),
};

// Anything else (uncategorized): rising bars, growth in general.
const RISING_BARS = (
  <>
    <rect x="96" y="58" width="12" height="40" rx="2" className="fallback-bar" />
    <rect x="114" y="46" width="12" height="52" rx="2" className="fallback-bar" />
    <rect x="132" y="32" width="12" height="66" rx="2" className="fallback-bar fallback-bar-top" />
  </>
);

/** The scene drawn for `category` (a category slug): its own, or the rising bars. */
export function illustrationFor(category: string): string {
  return category in SCENES ? category : 'rising-bars';
}

export function CategoryIllustration({ category }: { category: string }) {
  const scene = illustrationFor(category);
  return (
    <svg viewBox="0 0 160 90" preserveAspectRatio="xMaxYMid slice" focusable="false" data-illustration={scene} data-testid="category-illustration">
      <circle cx="134" cy="22" r="34" className="fallback-halo" />
      {SCENES[scene] ?? RISING_BARS}
    </svg>
  );
}

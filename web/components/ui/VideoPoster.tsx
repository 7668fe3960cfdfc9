/**
 * The drawn posters of the video facades (hand-written SVG, no image request): `growth` for the home
 * page's hero video (a sunrise over hills, savings rising as bars, a tree grown from a seed) and
 * `illustration` for the /get-quote video (a policy illustration on a desk: its projection line, its
 * table of years, a pen). A square scene cut to the facade's shape (slice), so it fills portrait and
 * landscape alike, and it sits inside the facade's fixed box: nothing moves when it paints. Decorative:
 * the play button beside it carries the video's title.
 */

export type VideoPosterScene = 'growth' | 'illustration';

function GrowthScene() {
  return (
    <>
      <rect width="200" height="200" fill="#072a45" />
      <rect y="60" width="200" height="140" fill="#0d3f66" />
      <rect y="100" width="200" height="100" fill="#15507f" />
      <g fill="#fff" opacity="0.5">
        <circle cx="30" cy="28" r="1" />
        <circle cx="62" cy="16" r="0.8" />
        <circle cx="150" cy="24" r="1.1" />
        <circle cx="178" cy="46" r="0.8" />
        <circle cx="112" cy="10" r="0.7" />
      </g>
      <circle cx="132" cy="128" r="34" fill="#f5b301" opacity="0.25" />
      <circle cx="132" cy="128" r="24" fill="#f5b301" />
      <g fill="#f5b301" opacity="0.9">
        <rect x="34" y="124" width="10" height="26" rx="1.5" />
        <rect x="50" y="112" width="10" height="38" rx="1.5" />
        <rect x="66" y="98" width="10" height="52" rx="1.5" />
        <rect x="82" y="80" width="10" height="70" rx="1.5" />
      </g>
      <path d="M30 118 88 72" stroke="#fff" strokeWidth="2" strokeLinecap="round" strokeDasharray="3 4" opacity="0.7" />
      <path d="M0 150c30-14 60-16 96-8s70 6 104-10v68H0z" fill="#0b3b60" />
      <path d="M0 168c40-12 80-10 120-2s56 4 80-4v38H0z" fill="#072a45" />
      <path d="M163 150v-24" stroke="#072a45" strokeWidth="3" strokeLinecap="round" />
      <circle cx="163" cy="118" r="12" fill="#1d7a46" />
      <circle cx="156" cy="124" r="8" fill="#1d7a46" />
      <circle cx="170" cy="124" r="8" fill="#27935a" />
    </>
  );
}

function IllustrationScene() {
  return (
    <>
      <rect width="200" height="200" fill="#0b3b60" />
      <circle cx="170" cy="30" r="60" fill="#15507f" opacity="0.6" />
      <circle cx="18" cy="182" r="46" fill="#072a45" opacity="0.8" />
      <g transform="rotate(-6 100 100)">
        <rect x="46" y="40" width="108" height="128" rx="4" fill="#f5f8fb" />
        <rect x="56" y="50" width="56" height="5" rx="2" fill="#0b3b60" />
        <rect x="56" y="60" width="36" height="3" rx="1.5" fill="#9aaabb" />
        <path d="M58 118h88M58 118V72" stroke="#c7d3df" strokeWidth="1.2" />
        <path d="M58 114c12-2 22-6 32-12s22-16 34-20 18-8 22-10" fill="none" stroke="#1d7a46" strokeWidth="2.5" strokeLinecap="round" />
        <path d="M58 116c14-1 30-4 46-8s28-8 42-10" fill="none" stroke="#9aaabb" strokeWidth="1.6" strokeDasharray="3 3" />
        <g fill="#d5dee8">
          <rect x="56" y="128" width="90" height="4" rx="1" />
          <rect x="56" y="136" width="90" height="4" rx="1" />
          <rect x="56" y="144" width="90" height="4" rx="1" />
          <rect x="56" y="152" width="60" height="4" rx="1" />
        </g>
      </g>
      <g transform="rotate(32 150 150)">
        <rect x="140" y="112" width="7" height="62" rx="2" fill="#f5b301" />
        <path d="M140 174h7l-3.5 9z" fill="#8a5a00" />
      </g>
    </>
  );
}

export function VideoPoster({ scene }: { scene: VideoPosterScene }) {
  return (
    <svg
      className="video-poster-art"
      viewBox="0 0 200 200"
      preserveAspectRatio="xMidYMid slice"
      aria-hidden="true"
      focusable="false"
      data-testid="video-poster-art"
      data-scene={scene}
    >
      {scene === 'growth' ? <GrowthScene /> : <IllustrationScene />}
    </svg>
  );
}

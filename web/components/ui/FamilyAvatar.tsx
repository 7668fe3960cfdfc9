/**
 * A family member's designed portrait: a head-and-shoulders silhouette in the member's own colours
 * (web/content/family.ts) with the monogram on the shoulders. Hand-drawn inline SVG, no image request;
 * named for assistive technology ("Portrait of Robert Hartwell"), so it is a picture, not decoration.
 */
import { type FamilyMember, monogram } from '../../content/family';

const HAIR_PATHS: Record<FamilyMember['hair'], string> = {
  // A short cut: a cap over the crown.
  short: 'M30 38c0-12 8-20 18-20s18 8 18 20c-4-6-10-9-18-9s-14 3-18 9z',
  'short-grey': 'M30 38c0-12 8-20 18-20s18 8 18 20c-4-6-10-9-18-9s-14 3-18 9z',
  // Shoulder-length hair, drawn behind the head.
  long: 'M27 60c-3-10-2-30 6-38 8-7 22-7 30 0 8 8 9 28 6 38-4-3-7-8-8-14H35c-1 6-4 11-8 14z',
};

export function FamilyAvatar({ member, className }: { member: FamilyMember; className?: string }) {
  const { background, accent } = member.colours;
  const clipId = `avatar-clip-${member.id}`;
  const hairFill = member.hair === 'short-grey' ? '#c9ced6' : accent;
  return (
    <svg
      className={['family-avatar', className].filter(Boolean).join(' ')}
      viewBox="0 0 96 96"
      width="96"
      height="96"
      role="img"
      aria-label={`Portrait of ${member.name}`}
      data-testid="family-avatar"
    >
      <defs>
        <clipPath id={clipId}>
          <circle cx="48" cy="48" r="48" />
        </clipPath>
      </defs>
      <g clipPath={`url(#${clipId})`}>
        <rect width="96" height="96" fill={background} />
        <circle cx="78" cy="20" r="26" fill="#fff" opacity="0.35" />
        {member.hair === 'long' ? <path d={HAIR_PATHS.long} fill={hairFill} /> : null}
        <path d="M10 100c2-22 18-34 38-34s36 12 38 34z" fill={accent} />
        <path d="M41 62h14v8c0 4-3 7-7 7s-7-3-7-7z" fill="#e9c9ae" />
        <ellipse cx="48" cy="42" rx="15" ry="17" fill="#f1d4bb" />
        {member.hair === 'long' ? (
          <path d="M33 40c0-11 7-18 15-18s15 7 15 18c-6-2-11-6-14-11-3 5-9 9-16 11z" fill={hairFill} />
        ) : (
          <path d={HAIR_PATHS[member.hair]} fill={hairFill} />
        )}
        <text
          x="48"
          y="88"
          textAnchor="middle"
          fontSize="13"
          fontWeight="700"
          letterSpacing="1"
          fill="#fff"
          fontFamily="inherit"
          aria-hidden="true"
        >
          {monogram(member.name)}
        </text>
      </g>
    </svg>
  );
}

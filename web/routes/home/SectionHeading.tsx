/** The eyebrow, h2 and lead that open every home section; the h2 id labels the section. */
import type { SectionIntro } from '../../content/home';

export function SectionHeading({ intro, headingId }: { intro: SectionIntro; headingId: string }) {
  return (
    <header className="section-heading">
      <p className="eyebrow">{intro.eyebrow}</p>
      <h2 id={headingId}>{intro.heading}</h2>
      <p className="lead">{intro.lead}</p>
    </header>
  );
}

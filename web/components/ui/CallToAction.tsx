/** The closing call to action used across pages: every action leads to /get-quote or a phone call. */
import { Phone } from 'lucide-react';
import { Link } from 'react-router';
import { useSiteConfig } from '../layout/site-config-context';

export interface CallToActionProps {
  id?: string;
  heading: string;
  text: string;
  buttonLabel?: string;
}

export function CallToAction({ id, heading, text, buttonLabel = 'Get Your Free IUL Illustration' }: CallToActionProps) {
  const config = useSiteConfig();
  const headingId = `${id ?? 'cta'}-heading`;
  return (
    <section id={id} className="cta-section" aria-labelledby={headingId}>
      <div className="container narrow-center">
        <h2 id={headingId}>{heading}</h2>
        <p>{text}</p>
        <div className="button-row">
          <Link to="/get-quote" className="button button-accent">
            {buttonLabel}
          </Link>
          <a href={`tel:${config.phoneE164}`} className="button button-outline-light">
            <Phone aria-hidden="true" size={18} /> Call <span className="phone-number">{config.phoneDisplay}</span>
          </a>
        </div>
      </div>
    </section>
  );
}

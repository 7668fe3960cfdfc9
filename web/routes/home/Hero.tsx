/**
 * The hero: the page's one h1, the four claims, two video facades (portrait shown on desktop,
 * landscape on screens up to 768px, chosen by CSS) and the calls to action; the call button, with
 * the number, is for mobile only. On a phone both buttons sit right after the lead (web/styles/home.css),
 * so they are on the first screen.
 */
import { Phone } from 'lucide-react';
import { Link } from 'react-router';
import { useSiteConfig } from '../../components/layout/site-config-context';
import { VideoFacade } from '../../components/ui/VideoFacade';
import { heroContent } from '../../content/home';

export function Hero() {
  const config = useSiteConfig();
  const hero = heroContent(config);
  return (
    <section id="hero" className="home-hero" aria-labelledby="hero-title">
      <div className="container hero-grid">
        <div className="hero-copy">
          <p className="eyebrow hero-eyebrow">{hero.eyebrow}</p>
          <h1 id="hero-title">{hero.heading}</h1>
          <p className="hero-lead">{hero.lead}</p>
          <ul className="hero-claims" data-testid="hero-claims">
            {hero.claims.map((claim) => (
              <li key={claim.label} className="hero-claim">
                <span className="hero-claim-value">{claim.value}</span>{' '}
                <span className="hero-claim-label">{claim.label}</span>
              </li>
            ))}
          </ul>
          <div className="hero-actions">
            <Link to="/get-quote" className="button button-accent">
              {hero.ctaLabel}
            </Link>
            <a href={`tel:${config.phoneE164}`} className="button button-outline-light hero-call-mobile" data-testid="hero-mobile-call">
              <Phone aria-hidden="true" size={18} /> {hero.mobileCallLabel} <span className="phone-number">{config.phoneDisplay}</span>
            </a>
          </div>
          <p className="hero-note">{hero.claimsNote}</p>
        </div>
        <div className="hero-media">
          <div className="hero-video-desktop" data-testid="hero-video-desktop">
            <VideoFacade
              host={config.videoHost}
              videoId={config.heroVideoPortraitId}
              title={hero.portraitVideoTitle}
              orientation="portrait"
            />
          </div>
          <div className="hero-video-mobile" data-testid="hero-video-mobile">
            <VideoFacade
              host={config.videoHost}
              videoId={config.heroVideoLandscapeId}
              title={hero.landscapeVideoTitle}
              orientation="landscape"
            />
          </div>
        </div>
      </div>
    </section>
  );
}

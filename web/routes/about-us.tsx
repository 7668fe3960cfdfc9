/**
 * /about-us (SPEC "About page"): hero, the family legacy, the leadership team, mission, four reasons,
 * the 4-step process, contact details and office hours, and a button to /get-quote. Copy comes from
 * web/content/about.ts (the family from web/content/family.ts, each leader with a drawn portrait);
 * contact details, the licence number and the licensed states from the site config.
 */
import { Clock, GraduationCap, Handshake, Mail, MapPin, Phone, Scale, ShieldCheck, Users } from 'lucide-react';
import { Link } from 'react-router';
import type { Route } from './+types/about-us';
import { useSiteConfig } from '../components/layout/site-config-context';
import { type AboutIcon, aboutContent, aboutPageJsonLd } from '../content/about';
import { fullAddress, licensedStateNames } from '../../contract/site-config';
import { FamilyAvatar } from '../components/ui/FamilyAvatar';
import { familyMember } from '../content/family';
import { configFromMatches, pageMeta } from '../seo/meta';

export const meta: Route.MetaFunction = ({ matches }) => {
  const config = configFromMatches(matches);
  const content = aboutContent(config);
  return pageMeta(config, {
    title: content.seo.title,
    description: content.seo.description,
    path: '/about-us',
    jsonLd: [aboutPageJsonLd(config, content)],
  });
};

const REASON_ICONS = {
  family: Users,
  education: GraduationCap,
  compare: Scale,
  service: Handshake,
} satisfies Record<AboutIcon, unknown>;

export default function AboutUsPage() {
  const config = useSiteConfig();
  const content = aboutContent(config);
  const { hero, legacy, leadership, mission, reasons, process, contact } = content;
  return (
    <>
      <section className="about-hero" aria-labelledby="about-title">
        <div className="container">
          <p className="eyebrow about-eyebrow">{hero.eyebrow}</p>
          <h1 id="about-title">{hero.heading}</h1>
          <p className="about-hero-lead">{hero.lead}</p>
        </div>
      </section>

      <section className="page-section" aria-labelledby="legacy-heading" data-testid="about-legacy">
        <div className="container">
          <h2 id="legacy-heading">{legacy.heading}</h2>
          <p className="lead about-intro">{legacy.intro}</p>
          <ul className="about-stats">
            {legacy.stats.map((stat) => (
              <li key={stat.id} className="about-stat" data-testid="legacy-stat">
                <span className="about-stat-value">{stat.value}</span>
                <span className="about-stat-label">{stat.label}</span>
              </li>
            ))}
          </ul>
          <ol className="about-timeline">
            {legacy.milestones.map((milestone) => (
              <li key={milestone.id} className="about-milestone" data-testid="legacy-generation">
                <span className="about-milestone-label">{milestone.label}</span>
                <div>
                  <p className="about-milestone-generation">{milestone.generation}</p>
                  <h3>{milestone.title}</h3>
                  <p>{milestone.text}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="page-section section-alt" aria-labelledby="leadership-heading">
        <div className="container">
          <h2 id="leadership-heading">{leadership.heading}</h2>
          <p className="lead about-intro">{leadership.intro}</p>
          <ul className="about-leaders">
            {leadership.leaders.map((leader) => (
              <li key={leader.id} className="card about-leader" data-testid="leader">
                <FamilyAvatar member={familyMember(leader.id)} className="about-avatar" />
                <div>
                  <h3>{leader.name}</h3>
                  <p className="about-leader-role">{leader.role}</p>
                  <p className="about-leader-generation">{leader.generation}</p>
                  <p>{leader.bio}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="page-section" aria-labelledby="mission-heading">
        <div className="container narrow-block">
          <h2 id="mission-heading">{mission.heading}</h2>
          <p className="about-mission-statement">{mission.statement}</p>
          <p>{mission.text}</p>
        </div>
      </section>

      <section className="page-section section-alt" aria-labelledby="reasons-heading">
        <div className="container">
          <h2 id="reasons-heading">{reasons.heading}</h2>
          <p className="lead about-intro">{reasons.intro}</p>
          <ul className="card-grid about-reasons">
            {reasons.items.map((reason) => {
              const Icon = REASON_ICONS[reason.icon];
              return (
                <li key={reason.id} className="card about-reason" data-testid="about-reason">
                  <span className="about-reason-icon" aria-hidden="true">
                    <Icon size={24} />
                  </span>
                  <h3>{reason.title}</h3>
                  <p>{reason.text}</p>
                </li>
              );
            })}
          </ul>
        </div>
      </section>

      <section className="page-section" aria-labelledby="process-heading">
        <div className="container">
          <h2 id="process-heading">{process.heading}</h2>
          <p className="lead about-intro">{process.intro}</p>
          <ol className="about-process">
            {process.steps.map((step, index) => (
              <li key={step.id} className="about-step" data-testid="process-step">
                <span className="about-step-number" aria-hidden="true">
                  {index + 1}
                </span>
                <h3>
                  <span className="visually-hidden">Step {index + 1}: </span>
                  {step.title}
                </h3>
                <p>{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="page-section section-alt" aria-labelledby="contact-heading" data-testid="about-contact">
        <div className="container about-contact">
          <div>
            <h2 id="contact-heading">{contact.heading}</h2>
            <p>{contact.intro}</p>
            <address className="about-contact-list">
              <a href={`tel:${config.phoneE164}`} data-testid="about-phone">
                <Phone aria-hidden="true" size={18} /> <span className="phone-number">{config.phoneDisplay}</span>
              </a>
              <a href={`mailto:${config.email}`} data-testid="about-email">
                <Mail aria-hidden="true" size={18} /> {config.email}
              </a>
              <span>
                <MapPin aria-hidden="true" size={18} /> {fullAddress(config)}
              </span>
            </address>
            <p className="about-licenses" data-testid="about-licenses">
              <ShieldCheck aria-hidden="true" size={18} />
              <span>
                Texas Department of Insurance agency license No.{' '}
                <span className="license-number">{config.agencyLicenseNumber}</span>. Licensed to offer life insurance in{' '}
                {licensedStateNames(config)}.
              </span>
            </p>
          </div>
          <div className="card about-hours" data-testid="about-hours">
            <h3>
              <Clock aria-hidden="true" size={20} /> {contact.hoursHeading}
            </h3>
            <p>{config.officeHours}</p>
            <p>{config.weekendNote}</p>
            <Link to="/get-quote" className="button button-primary" data-testid="about-quote-button">
              {contact.buttonLabel}
            </Link>
          </div>
        </div>
      </section>

      <div className="container">
        <p className="disclaimer about-disclaimer">{content.disclaimer}</p>
      </div>
    </>
  );
}

/**
 * The site footer: the agency, quick links, contact details and hours, the educational disclaimer, the
 * agency's licence number and the states it is licensed in (site config), and the legal links.
 */
import { Mail, MapPin, Phone } from 'lucide-react';
import { Link } from 'react-router';
import { footerLegalLinks, footerQuickLinks, socialProfiles } from '../../content/navigation';
import { fullAddress, licensedStateNames } from '../../../contract/site-config';
import { useRootData } from './site-config-context';

/** The footer of every page, rendered on the server from the site config. */
export function Footer() {
  const { config, year } = useRootData();
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div>
          <h2 id="footer-brand" className="footer-heading">
            {config.agencyName}
          </h2>
          <p>
            A family insurance agency since {config.foundedYear}. We help families, professionals and business owners
            understand how a properly structured {config.productName} policy can add tax-free retirement income and
            lifelong protection to their plans.
          </p>
          <ul className="social-links" aria-label="Social media">
            {socialProfiles.map((profile) => (
              <li key={profile.network}>
                <a href={profile.url} target="_blank" rel="noopener noreferrer">
                  {profile.network}
                  <span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
        <nav aria-labelledby="footer-quick-links">
          <h2 id="footer-quick-links" className="footer-heading">
            Quick Links
          </h2>
          <ul className="footer-links">
            {footerQuickLinks(config).map((item) => (
              <li key={item.label}>
                <Link to={item.to}>{item.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 id="footer-contact" className="footer-heading">
            Contact Us
          </h2>
          <address className="footer-contact">
            <a href={`tel:${config.phoneE164}`}>
              <Phone aria-hidden="true" size={16} /> <span className="phone-number">{config.phoneDisplay}</span>
            </a>
            <a href={`mailto:${config.email}`}>
              <Mail aria-hidden="true" size={16} /> {config.email}
            </a>
            <span>
              <MapPin aria-hidden="true" size={16} /> {fullAddress(config)}
            </span>
          </address>
          <p className="footer-hours">{config.officeHours}</p>
          <div className="footer-actions">
            {/* Gold, as the hero's call to action on the dark background: navy on the footer's darker navy
                was 1.3:1, a button a visitor could not make out. */}
            <Link to="/get-quote" className="button button-accent" data-testid="footer-schedule">
              Schedule Consultation
            </Link>
            <a href={`tel:${config.phoneE164}`} className="button button-outline-light">
              Call Now
            </a>
          </div>
        </div>
      </div>
      <div className="container footer-disclaimer">
        <p>
          The content on this site is for educational purposes only and is not a solicitation to buy insurance. Results
          shown are projections based on assumptions and are not guaranteed. Policy loans and withdrawals reduce the cash
          value and death benefit and may cause the policy to lapse. Guarantees depend on the claims-paying ability of the
          issuing insurer.
        </p>
        <p className="footer-licenses" data-testid="footer-licenses">
          Texas Department of Insurance agency license No. <span className="license-number">{config.agencyLicenseNumber}</span>.
          Licensed to offer life insurance in {licensedStateNames(config)}.
        </p>
      </div>
      <div className="container footer-bottom">
        <p>
          © {year} {config.agencyLegalName}. All rights reserved.
        </p>
        <nav aria-label="Legal">
          <ul className="legal-strip">
            {footerLegalLinks.map((item) => (
              <li key={item.label}>
                <Link to={item.to}>{item.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </footer>
  );
}

/** The header's and footer's links: one list, so both always agree. */
import { productPaths, type SiteConfig } from '../../contract/site-config';

export interface NavItem {
  label: string;
  to: string;
  /** Opens in a new tab (the external stories site). */
  external?: boolean;
}

export function mainNavigation(config: SiteConfig): NavItem[] {
  const paths = productPaths(config);
  return [
    { label: 'How It Works', to: '/#how-it-works' },
    { label: 'Benefits', to: '/#benefits' },
    { label: 'Case Studies', to: '/#case-studies' },
    { label: 'SEP IRA vs IUL', to: paths.sepComparison },
    { label: 'FAQs', to: '/faq' },
    { label: 'Stories', to: config.storiesUrl, external: true },
    { label: 'Ultimate Guide', to: paths.ultimateGuide },
    { label: 'About Us', to: '/about-us' },
  ];
}

export function footerQuickLinks(config: SiteConfig): NavItem[] {
  const paths = productPaths(config);
  return [
    { label: 'Home', to: '/' },
    { label: 'How It Works', to: '/#how-it-works' },
    { label: 'IUL Calculator', to: '/#calculator' },
    { label: 'FAQs', to: '/faq' },
    { label: 'Ultimate Guide', to: paths.ultimateGuide },
    { label: 'SEP IRA vs IUL', to: paths.sepComparison },
    { label: 'About Us', to: '/about-us' },
    { label: 'Blog', to: '/blog' },
    { label: 'Get a Free Quote', to: '/get-quote' },
    { label: 'Blog API for Authors', to: '/api/usage-examples' },
  ];
}

export const footerLegalLinks: readonly NavItem[] = [
  { label: 'Privacy Policy', to: '/legal/privacy-policy' },
  { label: 'Terms of Service', to: '/legal/terms-of-service' },
  { label: 'Disclosures', to: '/legal/disclosures' },
  { label: 'Our Licenses', to: '/legal/our-licenses' },
  { label: 'Accessibility', to: '/legal/accessibility-services' },
  { label: 'All Legal Documents', to: '/legal' },
  { label: 'Login', to: '/login' },
];

/** Placeholder social profiles (SPEC section 2): the networks' front pages until the agency's own exist. */
export const socialProfiles: readonly { network: string; url: string }[] = [
  { network: 'Facebook', url: 'https://www.facebook.com/' },
  { network: 'LinkedIn', url: 'https://www.linkedin.com/' },
  { network: 'YouTube', url: 'https://www.youtube.com/' },
];

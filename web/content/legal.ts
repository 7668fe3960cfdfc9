/** The legal index (SPEC section 2): 11 documents, each with title, path and icon. */
export type LegalIcon =
  | 'shield'
  | 'file-text'
  | 'scale'
  | 'badge-check'
  | 'map-pin'
  | 'sliders'
  | 'info'
  | 'cookie'
  | 'book-open'
  | 'accessibility';

export interface LegalEntry {
  title: string;
  path: string;
  icon: LegalIcon;
  summary: string;
}

export const LEGAL_DOCUMENTS: readonly LegalEntry[] = [
  { title: 'Privacy Policy', path: '/legal/privacy-policy', icon: 'shield', summary: 'What we collect, why, and the choices you have.' },
  { title: 'Terms of Service', path: '/legal/terms-of-service', icon: 'file-text', summary: 'The terms that apply when you use our services.' },
  { title: 'Disclosures', path: '/legal/disclosures', icon: 'scale', summary: 'Important facts about illustrations, projections and policy loans.' },
  { title: 'Our Licenses', path: '/legal/our-licenses', icon: 'badge-check', summary: 'The states and lines of authority under which our agents are licensed.' },
  { title: 'California Privacy Notice', path: '/legal/california-privacy-notice', icon: 'map-pin', summary: 'Notice at collection for California residents (CCPA/CPRA).' },
  { title: 'California Privacy Choices', path: '/legal/california-privacy-choices', icon: 'sliders', summary: 'How California residents can exercise their privacy rights.' },
  { title: 'Washington Privacy Notice', path: '/legal/washington-privacy-notice', icon: 'map-pin', summary: 'Consumer health data notice for Washington residents.' },
  { title: 'Additional Information', path: '/legal/additional-information', icon: 'info', summary: 'Company details and further regulatory information.' },
  { title: 'Cookie Preferences', path: '/legal/cookie-preferences', icon: 'cookie', summary: 'Which cookies and local storage this site uses and how to control them.' },
  { title: 'Terms of Use', path: '/legal/terms-of-use', icon: 'book-open', summary: 'The rules for using this website and its content.' },
  { title: 'Accessibility Services', path: '/legal/accessibility-services', icon: 'accessibility', summary: 'Our accessibility commitment and how to request help.' },
];

export function findLegalDocument(slug: string): LegalEntry | undefined {
  return LEGAL_DOCUMENTS.find((doc) => doc.path === `/legal/${slug}`);
}

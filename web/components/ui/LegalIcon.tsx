import { Accessibility, BadgeCheck, BookOpen, Cookie, FileText, Info, MapPin, Scale, Shield, SlidersHorizontal } from 'lucide-react';
import type { LegalIcon as LegalIconName } from '../../content/legal';

const ICONS = {
  shield: Shield,
  'file-text': FileText,
  scale: Scale,
  'badge-check': BadgeCheck,
  'map-pin': MapPin,
  sliders: SlidersHorizontal,
  info: Info,
  cookie: Cookie,
  'book-open': BookOpen,
  accessibility: Accessibility,
} satisfies Record<LegalIconName, unknown>;

export function LegalIcon({ name }: { name: LegalIconName }) {
  const Icon = ICONS[name];
  return <Icon aria-hidden="true" size={22} data-icon={name} />;
}

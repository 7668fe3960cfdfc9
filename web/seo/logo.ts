/**
 * Pictures in structured data: an ImageObject with an absolute URL and its size in pixels, and the
 * site's raster logo, `public/logo.png` (made from public/favicon.svg by scripts/make-logo.ts), which
 * is the publisher's `logo` in the articles' JSON-LD and the agency's in its own. Google wants a
 * crawlable PNG, JPEG or GIF logo of at least 112x112 pixels, which the SVG favicon is not.
 */
import type { Distance, ImageObject } from 'schema-dts';

export const SITE_LOGO = { path: '/logo.png', width: 512, height: 512, type: 'image/png' } as const;

/** An absolute URL for a path of this site (or a URL that is already absolute). */
export function absoluteUrl(siteUrl: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, `${siteUrl.replace(/\/+$/, '')}/`).href;
}

/**
 * An ImageObject of a picture on this site. schema-dts types `width` and `height` as text (Distance);
 * schema.org and Google's Article guidance read a plain number of pixels, which is what goes out.
 */
export function imageObject(url: string, width: number, height: number, caption?: string): ImageObject {
  return {
    '@type': 'ImageObject',
    url,
    contentUrl: url,
    width: width as unknown as Distance,
    height: height as unknown as Distance,
    ...(caption ? { caption } : {}),
  };
}

/** The site's logo as an ImageObject with its absolute URL and size. */
export function logoImageObject(siteUrl: string): ImageObject {
  return imageObject(absoluteUrl(siteUrl, SITE_LOGO.path), SITE_LOGO.width, SITE_LOGO.height);
}

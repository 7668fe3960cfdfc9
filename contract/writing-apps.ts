/**
 * Where writing apps find this site's doors (decision 0030): the Micropub endpoint and its media
 * endpoint, and IndieAuth's metadata, authorization and token endpoints. Every page's head links them
 * (web/root.tsx), and the server answers at these paths. The home page's Link header names the two an app
 * starts from (Micropub, and IndieAuth's metadata, which names the rest); the older separate
 * authorization_endpoint and token_endpoint links are in the head only, where the specifications let
 * apps find them too, so they cost no bytes on every answer of the home page (issue 39).
 */
export const MICROPUB_PATH = '/micropub';
export const MICROPUB_MEDIA_PATH = '/micropub/media';
export const INDIEAUTH_METADATA_PATH = '/.well-known/oauth-authorization-server';
export const INDIEAUTH_AUTHORIZATION_PATH = '/admin/indieauth';
export const INDIEAUTH_TOKEN_PATH = '/indieauth/token';

/** The links as `rel` -> path, in the order pages list them. */
export const WRITING_APP_LINKS: ReadonlyArray<readonly [rel: string, path: string]> = [
  ['micropub', MICROPUB_PATH],
  ['indieauth-metadata', INDIEAUTH_METADATA_PATH],
  ['authorization_endpoint', INDIEAUTH_AUTHORIZATION_PATH],
  ['token_endpoint', INDIEAUTH_TOKEN_PATH],
];

/** The rels the home page's Link header carries: an app discovers everything else from these. */
const HEADER_RELS = new Set(['micropub', 'indieauth-metadata']);

/** Micropub and IndieAuth metadata as one HTTP Link header. */
export const WRITING_APP_LINK_HEADER = WRITING_APP_LINKS.filter(([rel]) => HEADER_RELS.has(rel))
  .map(([rel, path]) => `<${path}>; rel="${rel}"`)
  .join(', ');

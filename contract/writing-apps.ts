/**
 * Where writing apps find this site's doors (decision 0030): the Micropub endpoint and its media
 * endpoint, and IndieAuth's metadata, authorization and token endpoints. Every page's head links them
 * (web/root.tsx), the home page's Link header too, and the server answers at these paths.
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

/** The same links as one HTTP Link header. */
export const WRITING_APP_LINK_HEADER = WRITING_APP_LINKS.map(([rel, path]) => `<${path}>; rel="${rel}"`).join(', ');

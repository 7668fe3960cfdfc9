/**
 * `blogpost media upload|list|delete`: the pictures on the site, over the API with the key's owner's
 * rights (blog:write).
 *
 *   media upload <files...>   POST /api/media for each file (checked offline first: it must exist and
 *                             be a PNG, JPEG, WebP, AVIF or GIF); prints id, URL, size, and whether the
 *                             site had it already (the same bytes are stored once)
 *   media list                GET /api/media (a table, or JSON)
 *   media delete <id|url>     DELETE /api/media/:id; an image posts still show is refused (409), and the
 *                             posts are named, so the author knows what to change first
 */
import { type MediaListResponse, type MediaResponse, parseMediaReference } from '../../contract/media';
import { ApiClient, apiCode, type ClientOptions, refusal } from '../api-client';
import type { CommandContext } from '../context';
import { CliError, ExitCode } from '../exit-codes';
import { formatBytes, type Upload, uploadImage } from '../media-uploads';
import { printable, table } from '../output';
import { localFileOf, readLocalImage } from '../post-images';

export type MediaOptions = ClientOptions & { json?: boolean };

function usedBy(media: MediaResponse): string {
  return media.used_by.length === 0 ? 'unused' : `${media.used_by.length} post${media.used_by.length === 1 ? '' : 's'}`;
}

export async function uploadMediaCommand(files: readonly string[], options: MediaOptions, ctx: CommandContext): Promise<ExitCode> {
  const images = [];
  for (const file of files) {
    const image = await readLocalImage(localFileOf(file, ctx.io.cwd));
    if (!image.ok) throw new CliError(`${file} cannot be uploaded: ${image.problem}. Nothing was sent.`, image.reason === 'unreadable' ? ExitCode.Local : ExitCode.Failed);
    images.push(image);
  }
  const client = new ApiClient(options, ctx, { keyRequired: true });
  const uploads: Upload[] = [];
  for (const image of images) {
    const upload = await uploadImage(client, image, ctx.io.cwd, { lookFirst: false });
    uploads.push(upload);
    if (!options.json) {
      const { media } = upload;
      const state = upload.alreadyStored ? 'already stored' : 'uploaded';
      ctx.out.data(`${media.id}  ${media.url}  ${formatBytes(upload.bytes)}  ${media.width}x${media.height}  ${state}  ${upload.file}`);
    }
  }
  if (options.json) {
    ctx.out.json({ success: true, uploads: uploads.map((upload) => ({ file: upload.file, already_stored: upload.alreadyStored, media: upload.media })) });
    return ExitCode.Ok;
  }
  const fresh = uploads.filter((upload) => !upload.alreadyStored).length;
  ctx.out.success(`${fresh} uploaded, ${uploads.length - fresh} the site had already (the same picture is stored once).`);
  ctx.out.info(ctx.out.dim('  In a post: <img src="URL" alt="what it shows"> (or ![what it shows](URL)), or cover_image: ID.'));
  return ExitCode.Ok;
}

export async function listMediaCommand(options: MediaOptions, ctx: CommandContext): Promise<ExitCode> {
  const client = new ApiClient(options, ctx, { keyRequired: true });
  const answer = await client.send('GET', '/api/media', { label: 'Listing images' });
  if (answer.status !== 200) throw refusal(answer, 'Could not list the images');
  const list = answer.json as MediaListResponse;
  if (options.json) {
    ctx.out.json(list);
    return ExitCode.Ok;
  }
  if (list.media.length === 0) {
    ctx.out.info('No images uploaded by this key\'s owner yet. Upload one with: blogpost media upload <file>');
    return ExitCode.Ok;
  }
  const rows = [
    ['ID', 'TYPE', 'PIXELS', 'SIZE', 'UPLOADED', 'USED BY', 'URL'],
    ...list.media.map((media) => [media.id, media.type.replace('image/', ''), `${media.width}x${media.height}`, formatBytes(media.bytes), media.uploaded_at.slice(0, 10), usedBy(media), media.url]),
  ];
  ctx.out.data(table(rows));
  ctx.out.info(ctx.out.dim(`${list.total} image${list.total === 1 ? '' : 's'}.`));
  return ExitCode.Ok;
}

export async function deleteMediaCommand(reference: string, options: MediaOptions, ctx: CommandContext): Promise<ExitCode> {
  const client = new ApiClient(options, ctx, { keyRequired: true });
  const parsed = parseMediaReference(reference, client.origin);
  if (!parsed) throw new CliError(`"${reference}" is not a media id (32 hex digits, as blogpost media list shows) or a /media/... URL of ${client.origin}.`, ExitCode.Usage);
  const answer = await client.send('DELETE', `/api/media/${parsed.id}`, { label: `Deleting ${parsed.id}` });
  if (answer.status === 409 && apiCode(answer) === 'media_in_use') {
    const posts = (answer.json as { used_by?: MediaResponse['used_by'] }).used_by ?? [];
    if (options.json) ctx.out.json({ ...(answer.json as object), success: false });
    else {
      ctx.out.error(`Not deleted: ${posts.length} post${posts.length === 1 ? ' still shows' : 's still show'} the image ${parsed.id}:`);
      for (const post of posts) ctx.out.info(`  ${post.id}  ${post.status}  "${printable(post.title)}"  ${client.origin}/blog/${post.slug}`);
      ctx.out.info('  → Remove it from their content or cover_image (blogpost get <post> --markdown, edit, publish), or delete those posts for good, then delete the image again.');
    }
    return ExitCode.Failed;
  }
  if (answer.status !== 200 && answer.status !== 204) throw refusal(answer, 'Not deleted');
  if (options.json) ctx.out.json({ success: true, id: parsed.id });
  else ctx.out.success(`Deleted the image ${parsed.id}: its URLs answer 404 now.`);
  return ExitCode.Ok;
}

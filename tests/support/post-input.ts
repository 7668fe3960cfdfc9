/** A create body as the post service takes it (checked by the contract, as the API checks one), for the services' unit tests. */
import { checkCreatePostBody, type CreatePostInput } from '../../contract/blog';
import type { PostInput } from '../../api/services/post-service';

export function postInput(overrides: Partial<CreatePostInput> & Record<string, unknown> = {}): PostInput {
  const check = checkCreatePostBody({
    title: 'How the 0% Floor of an IUL Works',
    content: '<p>Index credits have a 0% floor; policy charges still apply.</p>',
    excerpt: 'What the floor guarantees, and what it does not.',
    category: 'IUL Strategies',
    status: 'published',
    author: { name: 'Jane Author', credentials: 'CFP' },
    ...overrides,
  });
  if (!check.ok) throw new Error(`test body is invalid: ${JSON.stringify(check)}`);
  return { data: check.data, ignoredFields: check.ignoredFields };
}

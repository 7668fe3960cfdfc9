/**
 * What the writing apps' doors (Micropub, the Ghost Admin API) share before the post service: the
 * author name a key's posts carry, and a payload made in the door's field names, checked by the same
 * contract as an API create, its problems named in the door's words.
 */
import { checkCreatePostBody } from '../../contract/blog';
import type { ApiKeySummary } from '../../contract/keys';
import type { StaffRepository } from '../store/store';
import type { PostInput } from './post-service';

/** The staff member's name when the key's owner is a staff account, else the owner as written. */
export async function authorNameOf(staff: Pick<StaffRepository, 'findByEmail'>, key: ApiKeySummary): Promise<string> {
  const member = key.owner.includes('@') ? await staff.findByEmail(key.owner).catch(() => null) : null;
  return member?.name ?? key.owner;
}

/**
 * The payload checked by the contract; `refuse` makes the door's error from its problems, each one
 * the door's name of the field (`nameOf`, else ours) and the contract's message.
 */
export function checkedDoorPost(payload: Record<string, unknown>, nameOf: Readonly<Record<string, string>>, refuse: (problems: string[]) => Error): PostInput {
  const check = checkCreatePostBody(payload);
  if (!check.ok) {
    throw refuse(check.reason === 'invalid' ? check.problems.map((problem) => `${nameOf[problem.field] ?? problem.field} ${problem.message}`) : ['the body']);
  }
  return { data: check.data, ignoredFields: [] };
}

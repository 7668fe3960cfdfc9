/**
 * The post every example and probe sends: the payload of the Python example (SPEC section 7), as a
 * draft so that probes run with a real key never publish anything.
 */
import type { CreatePostInput } from '../contract/blog';

export const SAMPLE_POST = {
  title: 'Understanding Indexed Universal Life Insurance',
  content:
    '<h2>What is IUL?</h2><p>Indexed universal life insurance combines a death benefit with cash value that can grow with a market index, with a floor that protects against market losses.</p>',
  excerpt: 'A short introduction to indexed universal life insurance and how its cash value grows.',
  category: 'IUL Strategies',
  tags: ['IUL', 'retirement', 'tax-free income'],
  status: 'Draft',
  author: {
    name: 'Jane Author',
    bio: 'Retirement income writer.',
    credentials: 'CFP',
  },
  trust: {
    factCheckedBy: { name: 'John Reviewer', credentials: 'CPA', link: 'https://example.com/reviewers/john' },
    sources: [{ name: 'IRS Publication 590-B', url: 'https://www.irs.gov/publications/p590b' }],
    lastUpdated: '2025-01-15',
  },
} as const satisfies CreatePostInput;

export const PYTHON_USER_AGENT = 'python-requests/2.31.0';
export const POSTMAN_USER_AGENT = 'PostmanRuntime/7.39.0';
/** A foreign origin for the preflight probe. */
export const PROBE_ORIGIN = 'https://integrator.example.com';

/** Schema of a quote request record (SPEC section 3); the seeded samples are checked against it in tests. */
import { z } from 'zod';

export const quoteRequestSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  email: z.email(),
  phone: z.string().min(7),
  age: z.number().int().min(18).max(100),
  retirementAge: z.number().int().min(40).max(100),
  annualContribution: z.number().positive(),
  healthRating: z.enum(['excellent', 'good', 'fair', 'poor']),
  tobaccoUser: z.boolean(),
  currentRetirementSavings: z.number().nonnegative(),
  preferredContactMethod: z.enum(['email', 'phone']),
  additionalNotes: z.string(),
  status: z.enum(['new', 'in-progress']),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  agentNotes: z.string().optional(),
});

export type QuoteRequest = z.infer<typeof quoteRequestSchema>;

import { z } from 'zod';

/** Every successful answer is `{ data: … }` (DESIGN.md §4). */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ data });
}

export const emptyData = envelope(z.null());

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    list: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

/**
 * The user contract's plain values, apart from its zod schemas (user.ts): the web app's first pages import
 * these without loading zod.
 */

export const INDUSTRIES = [
  'Fashion & apparel',
  'Beauty & personal care',
  'Home & garden',
  'Electronics',
  'Food & drink',
  'Health & wellness',
  'Sports & outdoors',
  'Toys & hobbies',
  'Jewelry & accessories',
  'Pets',
  'Agency',
  'Other',
] as const;

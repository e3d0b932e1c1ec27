import { defineConfig } from 'drizzle-kit';

// `npm run db:generate -w @vigil/server` writes a new numbered migration after a change to the schema.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './src/db/migrations',
});

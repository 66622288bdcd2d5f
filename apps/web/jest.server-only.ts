// Stands in for Next.js's `server-only` marker under Jest, which runs server code only.
export {};

-- The UI language an agent picked in the dashboard's switcher, restored at every sign-in
-- (docs/decisions.md "Remembering the UI language"). NULL: follow the browser's Accept-Language.
ALTER TABLE "users" ADD COLUMN "locale" TEXT;

-- A single statement cannot ROLLBACK, but an error ends it with nothing applied. A bulk statement
-- that reached fewer rows than it was asked for calls this, so the set changes entirely or not at
-- all without a transaction's extra round trips (docs/decisions.md "Inventory authorization and
-- atomicity"). SQLSTATE SB001 is ours alone; the services map it to the caller's NOT_FOUND.
CREATE FUNCTION "bulk_statement_incomplete"("requested" bigint, "reached" bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'bulk statement reached % of % rows', "reached", "requested" USING ERRCODE = 'SB001';
END;
$$;

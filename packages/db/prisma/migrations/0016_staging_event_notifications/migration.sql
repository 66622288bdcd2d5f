-- Live status of the agent dashboard (docs/decisions.md "Live status by LISTEN/NOTIFY"): every
-- change an agent waits for is announced on the channel "staging_events" by the database itself,
-- so the web, the api, the worker, the triggers of 0010 and a person fixing a row by hand all
-- announce alike. pg_notify is delivered at commit (never for a rolled-back change) and collapses
-- identical payloads of one transaction. The payload names ids and a state only.

-- A staging job was created or its status or phase changed; also used for its attempts, whose
-- number and cost the job list shows.
CREATE FUNCTION "notify_staging_job_event"(staging_job_id text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    property_id text;
    job_status text;
BEGIN
    SELECT j."propertyId", j."status"::text INTO property_id, job_status FROM "ai_jobs" AS j
    WHERE j."id" = staging_job_id AND j."type" = 'ROOM_STAGING';
    IF property_id IS NOT NULL THEN
        PERFORM pg_notify('staging_events', json_build_object(
            'kind', 'job', 'propertyId', property_id, 'jobId', staging_job_id, 'status', job_status)::text);
    END IF;
END;
$$;

CREATE FUNCTION "ai_jobs_notify_staging_event"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM "notify_staging_job_event"(NEW."id");
    RETURN NULL;
END;
$$;

-- Heartbeats and other bookkeeping updates of a running job announce nothing.
CREATE TRIGGER "ai_jobs_notify_staging_event_insert_trg"
    AFTER INSERT ON "ai_jobs"
    FOR EACH ROW WHEN (NEW."type" = 'ROOM_STAGING')
    EXECUTE FUNCTION "ai_jobs_notify_staging_event"();

CREATE TRIGGER "ai_jobs_notify_staging_event_update_trg"
    AFTER UPDATE OF "status", "phase" ON "ai_jobs"
    FOR EACH ROW WHEN (NEW."type" = 'ROOM_STAGING'
        AND (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."phase" IS DISTINCT FROM NEW."phase"))
    EXECUTE FUNCTION "ai_jobs_notify_staging_event"();

CREATE FUNCTION "ai_provider_attempts_notify_staging_event"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM "notify_staging_job_event"(NEW."aiJobId");
    RETURN NULL;
END;
$$;

CREATE TRIGGER "ai_provider_attempts_notify_staging_event_insert_trg"
    AFTER INSERT ON "ai_provider_attempts"
    FOR EACH ROW EXECUTE FUNCTION "ai_provider_attempts_notify_staging_event"();

CREATE TRIGGER "ai_provider_attempts_notify_staging_event_update_trg"
    AFTER UPDATE OF "status", "costMicrousd" ON "ai_provider_attempts"
    FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."costMicrousd" IS DISTINCT FROM NEW."costMicrousd")
    EXECUTE FUNCTION "ai_provider_attempts_notify_staging_event"();

-- An image was added, removed (a rejection, a take-down, a deleted original) or reviewed.
CREATE FUNCTION "property_images_notify_staging_event"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    image record;
BEGIN
    IF TG_OP = 'DELETE' THEN
        image := OLD;
    ELSE
        image := NEW;
    END IF;
    PERFORM pg_notify('staging_events', json_build_object(
        'kind', 'image', 'propertyId', image."propertyId", 'jobId', image."aiJobId",
        'status', CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE image."reviewStatus" END)::text);
    RETURN NULL;
END;
$$;

CREATE TRIGGER "property_images_notify_staging_event_trg"
    AFTER INSERT OR DELETE ON "property_images"
    FOR EACH ROW EXECUTE FUNCTION "property_images_notify_staging_event"();

CREATE TRIGGER "property_images_notify_staging_event_review_trg"
    AFTER UPDATE OF "reviewStatus" ON "property_images"
    FOR EACH ROW WHEN (OLD."reviewStatus" IS DISTINCT FROM NEW."reviewStatus")
    EXECUTE FUNCTION "property_images_notify_staging_event"();

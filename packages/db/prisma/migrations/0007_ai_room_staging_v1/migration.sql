-- v1 room staging: a staged image is a property_images row with isStyled = true that was
-- generated from another image. v1 published it immediately, let agents pick it as the cover,
-- stored the style as the free text the agent typed, and kept styledFromId as a loose reference
-- (no foreign key) so deleting an original never failed; that is how orphans and dangling
-- references accumulated. 0008-0010 replace this model.

ALTER TABLE "property_images"
    ADD COLUMN "isStyled"     BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "styledFromId" TEXT,
    ADD COLUMN "style"        TEXT,
    ADD COLUMN "aiJobId"      TEXT;

CREATE INDEX "property_images_styledFromId_idx" ON "property_images"("styledFromId");
-- Not unique in v1: a retried v1 job could write its result twice.
CREATE INDEX "property_images_aiJobId_idx" ON "property_images"("aiJobId");

ALTER TABLE "property_images" ADD CONSTRAINT "property_images_aiJobId_fkey"
    FOREIGN KEY ("aiJobId") REFERENCES "ai_jobs"("id") ON DELETE SET NULL ON UPDATE CASCADE;

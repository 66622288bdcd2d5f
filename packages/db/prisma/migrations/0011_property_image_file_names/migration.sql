-- The name of the file an original was uploaded from ("living-room.jpg"): agents recognise their
-- photos by it, not by gallery position. NULL for rows from before this column and for staged
-- variants (they are named after their original). Its length is bounded by the upload use case.

ALTER TABLE "property_images" ADD COLUMN "fileName" TEXT;

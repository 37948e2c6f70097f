-- The back office's name search (issue 35): the planner estimates how many applications a name
-- matches (`ILIKE '%…%'` on the searchable name) from the statistics ANALYZE keeps on the trigram
-- index's expression. With PostgreSQL's default of 100 entries, a name of two common words ("María
-- Peña": 0.3% of 100,000) was estimated at 0.8%, and the planner walked the whole list in its order
-- filtering each row (18–25 ms) instead of reading the name's matches through the index (1.5–3 ms).
-- 1,000 entries estimate it within a few rows; ANALYZE then samples up to 300,000 rows of the table.
ALTER INDEX "users_name_trgm_idx" ALTER COLUMN 1 SET STATISTICS 1000;

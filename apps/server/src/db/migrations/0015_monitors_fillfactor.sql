-- Every check writes its monitor's row twice: the claim sets claimed_until (no index covers it), the result moves
-- next_check_at on (the due index does). A claim can be a heap-only update, which adds no index entry and leaves
-- nothing for the due index's scans to step over, only while the row's page has room for the new version. Half
-- of each page is kept free for that; pages written before this fill to it as their rows move.
ALTER TABLE monitors SET (fillfactor = 50);

"""Knowledge: ingestion, indexes (keyword, dense, SQL), fusion, reading and verification."""
